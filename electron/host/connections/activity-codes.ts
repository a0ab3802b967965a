// The activity log's English messages as codes the UI words in each language. One table for every
// message the host writes; a message not in it (a library's error) keeps its English, shown as is.
// Applied where entries are born (activity-log.ts), so no caller can forget it.
import type { ActivityCode, ActivityEntry } from '../../../shared/domain.js';
import { RESTART_REASONS } from './roots-change-policy.js';
import { HOLD_TEXT } from '../launch/server-failure.js';

type Coded = Pick<ActivityEntry, 'code' | 'params'>;

const EXACT = new Map<string, ActivityCode>([
  ['Disconnected.', 'disconnected'],
  ['The server closed the connection.', 'closed-by-server'],
  ['Disconnected: it kept flooding.', 'closed-for-flooding'],
  ['Reconnect requested.', 'reconnect-requested'],
  ['Sent roots/list_changed.', 'list-changed-sent'],
  ['Asked for roots but has none granted: answered [] and asked you.', 'consent-raised'],
  ['It did not ask for its folders again after being told they changed: changes reach it by a restart from now on.', 'no-reask'],
  [RESTART_REASONS.arguments, 'restart-arguments'],
  [RESTART_REASONS.mounts, 'restart-mounts'],
  [RESTART_REASONS.forget, 'restart-forget'],
  [RESTART_REASONS.reask, 'restart-reask'],
  [RESTART_REASONS.retry, 'restart-retry'],
  [HOLD_TEXT['blocked-path'], 'held-blocked-path'],
  [HOLD_TEXT.setup, 'held-setup'],
  [HOLD_TEXT['exits-at-start'], 'held-exits-at-start'],
  ['Enabled.', 'config-enabled'],
  ['Disabled.', 'config-disabled'],
  ['Roots sharing turned on.', 'config-sharing-on'],
  ['Roots sharing turned off.', 'config-sharing-off'],
  ['Sandbox turned on.', 'config-sandbox-on'],
  ['Sandbox turned off.', 'config-sandbox-off'],
  ['Network access turned on.', 'config-network-on'],
  ['Network access turned off.', 'config-network-off'],
  ['Its own sandboxes allowed.', 'config-own-sandboxes-on'],
  ['Its own sandboxes no longer allowed.', 'config-own-sandboxes-off'],
  ['The ports of this computer it may reach changed.', 'config-local-ports'],
  ['The protected paths you chose to leave writable changed.', 'config-writable'],
  ['Its network limited to its allowed hosts.', 'config-hosts-limited'],
  ['Its network opened to any host.', 'config-hosts-any'],
  ['Its allowed hosts changed: applied live, without a restart.', 'hosts-live'],
  ['Its sandbox limits changed.', 'config-limits'],
  ['The server configuration changed.', 'config-changed'],
]);

const PATTERNS: [RegExp, ActivityCode, (match: RegExpExecArray) => Record<string, string | number>][] = [
  [/^Asked for roots; answered (\d+)\.$/, 'roots-answered', (m) => ({ count: Number(m[1]) })],
  [/^Connected \(protocol ([^,)]+)(?:, (.+))?\)\.$/, 'connected', (m) => ({ protocol: m[1]!, server: m[2] ?? '' })],
  [/^Started with (\d+) folder\(s\) as arguments\.$/, 'started-with-folders', (m) => ({ count: Number(m[1]) })],
  [/^list_changed failed: (.*)$/s, 'list-changed-failed', (m) => ({ detail: m[1]! })],
  // egress-guard.ts's refused destinations, once each.
  [/^Network: refused (.*)$/s, 'network-refused', (m) => ({ detail: m[1]! })],
  // server-connection.ts's didNotReask: the same fact as the exact 'no-reask' text, with the window.
  [/^Restarts to apply changes: it does not re-read its folders\. \(It did not ask again within (\d+) ms of being told they changed\.\)$/, 'no-reask', (m) => ({ windowMs: Number(m[1]) })],
  [/^It answered the 2026-07-28 probe after (\d+) ms \(a slow start, not an error\)\.$/, 'slow-probe-answer', (m) => ({ afterMs: Number(m[1]) })],
  // server-connection.ts's verifyConfinement, with self-check.ts's detail.
  // Bind mounts (no file view): their protection is what the start found, and the words say so
  // wherever the host's detail does (the lookahead finds it anywhere in the detail).
  [
    /^(?=(?:.*?(protection found at its start))?)Sandbox verified: pid (\d+): \d+ sentinel\(s\) and \d+ file\(s\) of HOME outside the grants not visible; (\d+) root\(s\) mounted with their grant's mode, each the folder that was checked; (\d+) protected path\(s\) read-only; \d+ folder\(s\) above the data folder and protected paths pinned; \/proc\/sys read-only; (?:[^;]*; )*seccomp filter on \(keyrings, mount calls(, Unix sockets refused)?\)(?:; .*)?$/s,
    'sandbox-verified',
    // Unix sockets are refused where the server shares the host's network, and allowed in a network of its own
    // (the host's abstract sockets do not exist there): two wordings of one fact.
    (m) => ({ pid: m[2]!, count: Number(m[3]), protected: Number(m[4]), sockets: m[5] ? 'refused' : 'own-network', static: m[1] ? 'yes' : 'no' }),
  ],
  // Its own file view (self-check.ts's checkView).
  [
    /^Sandbox verified: pid (\d+): \d+ sentinel\(s\) and \d+ file\(s\) of HOME outside the grants not visible; (\d+) grant\(s\) through its file view, each the folder that was checked \(\d+ read-only: a new file refused; \d+ read-write: writable, a protected name refused\); protected names refused at any depth and whenever they appear, nothing placed in your folders(?: \(writable by your choice: [^)]*\))?; \/proc\/sys read-only; (?:[^;]*; )*seccomp filter on \(keyrings, mount calls(, Unix sockets refused)?\)(?:; .*)?$/s,
    'sandbox-verified-view',
    (m) => ({ pid: m[1]!, count: Number(m[2]), sockets: m[3] ? 'refused' : 'own-network' }),
  ],
  [/^Stopped: its sandbox could not be verified \((.*)\)\. It was not run unconfined\. Reconnect to try again; if it fails again, something on this computer is keeping the sandbox from holding\.$/s, 'sandbox-unverified', (m) => ({ detail: m[1]! })],
  // live-grants.ts: a change mounted in the running sandbox, or the restart it needed instead.
  [/^Applied live, without a restart \((\d+) ms\)\. Mounted: (.*?)\. Unmounted: (.*?)\. Sandbox verified again: .*$/s, 'live-applied', (m) => ({ ms: Number(m[1]), mounted: m[2]!, unmounted: m[3]! })],
  [/^Restarted: (.*)\.$/s, 'restart-live', (m) => ({ reason: m[1]! })],
  // connection-sandbox.ts's blocked().
  [/^The sandbox kept it from (.+) \(granted read-only\)\.$/s, 'sandbox-blocked-read-only', (m) => ({ path: m[1]! })],
  [/^The sandbox kept it from (.+) \(not granted\)\.$/s, 'sandbox-blocked', (m) => ({ path: m[1]! })],
  // inbound-limits.ts.
  [/^It sent more than (\d+) messages a second: they are read at that pace, and the rest waits\.$/, 'read-paced', (m) => ({ rate: Number(m[1]) })],
  [
    /^It sent more than (\d+) messages a second for ([\d.]+) s: it is not read at all for ([\d.]+) s \(pause (\d+) of (\d+)\); its requests are answered after that\.$/,
    'read-paused',
    (m) => ({ rate: Number(m[1]), seconds: Number(m[2]), pauseSeconds: Number(m[3]), pause: Number(m[4]), count: Number(m[5]) }),
  ],
  [/^It kept sending more than (\d+) messages a second after (\d+) pauses: its session was closed, and it is started again after a longer pause\.$/, 'flood-closed', (m) => ({ rate: Number(m[1]), count: Number(m[2]) })],
  // drain-wait.ts: a restart waiting for running calls, and one that stopped waiting.
  [/^Restarting when (\d+) running calls? finish(?:es)? \(at most (\d+) s\)\.$/, 'drain-waiting', (m) => ({ count: Number(m[1]), seconds: Number(m[2]) })],
  [/^Ended (\d+) running call\(s\) with an error: .* after waiting (\d+) s for it to finish/s, 'drain-cut', (m) => ({ count: Number(m[1]), seconds: Number(m[2]) })],
  // limit-watch.ts's limitHitText.
  [/^It reached its task limit \((\d+) processes and threads\): the kernel refuses it more\.$/, 'limit-tasks', (m) => ({ count: Number(m[1]) })],
  [/^It reached its memory limit \((\d+) MiB\): the kernel refuses it more\.$/, 'limit-memory', (m) => ({ mib: Number(m[1]) })],
  [/^It filled its \/tmp and TMPDIR \((\d+) MiB\): the kernel refuses it more\.$/, 'limit-tmp', (m) => ({ mib: Number(m[1]) })],
  [/^It reached its open-file limit \((\d+) per process\): the kernel refuses it more\.$/, 'limit-files', (m) => ({ count: Number(m[1]) })],
  [/^It wrote a line longer than (\d+) MB without a newline: the session was closed, and it is started again after a pause\.$/, 'long-line', (m) => ({ mb: Number(m[1]) })],
];

export function activityCode(message: string): Coded | undefined {
  const exact = EXACT.get(message);
  if (exact) return { code: exact };
  for (const [pattern, code, params] of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return { code, params: params(match) };
  }
  return undefined;
}
