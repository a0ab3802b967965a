// The host's activity events that more than one place emits (the app's connections and the proxy):
// built here once, worded by shared/i18n. A place that emits an event of its own builds it inline.
import type { ActivityEvent } from '../../../shared/activity-event.js';
import type { ServerRecord } from '../../../shared/domain.js';
import type { SandboxSelfCheck } from '../../../shared/sandbox.js';
import type { HoldReason } from '../launch/server-failure.js';
import type { LiveChange } from '../sandbox/confine-stdio.js';
import type { RestartWhy } from './roots-change-policy.js';

/** A restart the roots-change policy asked for. */
export function restartEvent(why: RestartWhy): ActivityEvent {
  const codes = { arguments: 'restart-arguments', mounts: 'restart-mounts', forget: 'restart-forget', reask: 'restart-reask', retry: 'restart-retry' } as const;
  return { code: codes[why] };
}

/** A failed server held until something relevant changes (server-failure.ts decides). */
export function holdEvent(hold: HoldReason): ActivityEvent {
  const codes = { 'blocked-path': 'held-blocked-path', setup: 'held-setup', 'exits-at-start': 'held-exits-at-start' } as const;
  return { code: codes[hold] };
}

/** A change of grants mounted into the running sandbox. */
export function liveChangeEvent(change: Extract<LiveChange, { kind: 'applied' }>): ActivityEvent {
  const list = (paths: readonly string[]) => (paths.length > 0 ? paths.join(', ') : '-');
  return { code: 'live-applied', params: { ms: Math.round(change.ms), mounted: list(change.added), unmounted: list(change.revoked) } };
}

/** A verified sandbox, from the facts its check proved; without them, the check's own words. */
export function verifiedEvent(check: SandboxSelfCheck): ActivityEvent {
  const proven = check.proven;
  if (!proven) return { code: 'error-text', params: { detail: `Sandbox verified: ${check.detail}` } };
  if (proven.view) return { code: 'sandbox-verified-view', params: { pid: String(proven.pid), count: proven.grants, sockets: proven.sockets } };
  return { code: 'sandbox-verified', params: { pid: String(proven.pid), count: proven.grants, protected: proven.protected, sockets: proven.sockets, static: proven.static ? 'yes' : 'no' } };
}

/** What changed in a server's settings, for the restart it causes (the first difference found). */
export function configChangeEvent(before: ServerRecord, after: ServerRecord): ActivityEvent {
  if (before.enabled !== after.enabled) return { code: after.enabled ? 'config-enabled' : 'config-disabled' };
  if (before.sharing !== after.sharing) return { code: after.sharing ? 'config-sharing-on' : 'config-sharing-off' };
  if (before.sandbox !== after.sandbox) return { code: after.sandbox ? 'config-sandbox-on' : 'config-sandbox-off' };
  if (before.network !== after.network) return { code: after.network ? 'config-network-on' : 'config-network-off' };
  if ((before.ownSandboxes === true) !== (after.ownSandboxes === true)) return { code: after.ownSandboxes ? 'config-own-sandboxes-on' : 'config-own-sandboxes-off' };
  if (JSON.stringify(before.allowLocal ?? []) !== JSON.stringify(after.allowLocal ?? [])) return { code: 'config-local-ports' };
  if ((before.allowHosts === undefined) !== (after.allowHosts === undefined)) return { code: after.allowHosts ? 'config-hosts-limited' : 'config-hosts-any' };
  if (JSON.stringify(before.limits ?? {}) !== JSON.stringify(after.limits ?? {})) return { code: 'config-limits' };
  if (JSON.stringify(before.writableByChoice ?? {}) !== JSON.stringify(after.writableByChoice ?? {})) return { code: 'config-writable' };
  return { code: 'config-changed' };
}

