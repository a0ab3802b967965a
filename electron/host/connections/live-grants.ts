// Carries out the roots-change policy's 'live' action for a running confined server, the same for
// the app's connections and for `mcp-roots proxy`: the new effective folders are mounted into its
// sandbox (live-mounts.ts), or the words for why it must be restarted instead.
import type { ServerRecord } from '../../../shared/domain.js';
import type { Exposure } from '../access/exposure.js';
import type { LiveChange, LiveGrants } from '../sandbox/confine-stdio.js';
import { sandboxRoots } from '../launch/stdio-start.js';

/** `writableByChoice`: the server's per-grant choices, as at its start (a change of them restarts it). */
export async function applyLiveGrants(
  live: LiveGrants | undefined,
  pid: number | null | undefined,
  after: Exposure,
  writableByChoice: ServerRecord['writableByChoice'],
): Promise<LiveChange> {
  if (!live?.available) return { kind: 'restart', reason: { why: 'unavailable', ...(live?.reason ? { detail: live.reason } : {}) } };
  if (!pid) return { kind: 'restart', reason: { why: 'not-running' } };
  try {
    return await live.apply(pid, sandboxRoots(after.folders, writableByChoice));
  } catch (error) {
    return { kind: 'restart', reason: { why: 'failed', detail: error instanceof Error ? error.message : String(error) } };
  }
}

/** The activity log's words for a change applied live. */
export function describeLiveChange(change: Extract<LiveChange, { kind: 'applied' }>): string {
  const list = (paths: readonly string[]) => (paths.length > 0 ? paths.join(', ') : '-');
  return `Applied live, without a restart (${Math.round(change.ms)} ms). Mounted: ${list(change.added)}. Unmounted: ${list(change.revoked)}. Sandbox verified again: ${change.check.detail}`;
}
