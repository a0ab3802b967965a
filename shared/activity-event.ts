// What the host says happened to a server, as a code and its parameters: every UI and the CLI word
// it from the one i18n table (shared/i18n), English included. Nothing parses English back into a
// code: an event is born typed, so a reworded sentence cannot lose its translation (#29 item 3).
// A new code without parameters here does not compile; one without words in a language fails
// tests/unit/shared/activity-events.test.ts.

/** Why a live change of grants became a restart (live-grants.ts, confine-stdio.ts, view-confine.ts). */
export type LiveRestartWhy =
  /** Its grants cannot change while it runs (`detail`: why, e.g. no sandbox). */
  | 'unavailable'
  /** It was not running yet when its folders changed. */
  | 'not-running'
  /** Mounting failed (`detail`: the error). */
  | 'failed'
  /** Its sandbox could not be verified after the change (`detail`: the check's words). */
  | 'unverified'
  /** Its file view is not running. */
  | 'view-gone'
  /** Its file view refused the change (`detail`: why). */
  | 'view-refused'
  /** Its allowed hosts could not be changed live (`detail`: the error). */
  | 'hosts-failed';

/** A live change that had to be a restart: why, and the OS's or library's own words where there are some. */
export interface LiveRestartReason {
  why: LiveRestartWhy;
  detail?: string;
}

type None = Record<never, never>;

/** Each code's parameters. Text parameters are paths, names or a library's own words, never our English. */
export interface ActivityParams {
  connected: { protocol: string; server: string };
  disconnected: None;
  'closed-by-server': None;
  'closed-for-flooding': None;
  'reconnect-requested': None;
  'roots-answered': { count: number };
  'list-changed-sent': None;
  'list-changed-failed': { detail: string };
  'consent-raised': None;
  'started-with-folders': { count: number };
  /** It did not ask again after list_changed: from now on changes reach it by a restart. */
  'no-reask': { windowMs: number };
  'slow-probe-answer': { afterMs: number };
  'restart-arguments': None;
  'restart-mounts': None;
  'restart-forget': None;
  'restart-reask': None;
  'restart-retry': None;
  'restart-live': LiveRestartReason;
  'held-blocked-path': None;
  'held-setup': None;
  'held-exits-at-start': None;
  'config-enabled': None;
  'config-disabled': None;
  'config-sharing-on': None;
  'config-sharing-off': None;
  'config-sandbox-on': None;
  'config-sandbox-off': None;
  'config-network-on': None;
  'config-network-off': None;
  'config-own-sandboxes-on': None;
  'config-own-sandboxes-off': None;
  'config-local-ports': None;
  'config-writable': None;
  'config-hosts-limited': None;
  'config-hosts-any': None;
  'config-limits': None;
  'config-changed': None;
  'hosts-live': None;
  /** egress-guard.ts's refused destination, once each (`detail`: the destination and how). */
  'network-refused': { detail: string };
  'limit-tasks': { count: number };
  'limit-memory': { mib: number };
  'limit-tmp': { mib: number };
  'limit-files': { count: number };
  /** Bind mounts: `static` 'yes' where its protection is what its start found. `pid` as text: a process id is not a quantity (no digit grouping). */
  'sandbox-verified': { pid: string; count: number; protected: number; sockets: 'refused' | 'own-network'; static: 'yes' | 'no' };
  /** Its own file view. */
  'sandbox-verified-view': { pid: string; count: number; sockets: 'refused' | 'own-network' };
  'sandbox-unverified': { detail: string };
  'live-applied': { ms: number; mounted: string; unmounted: string };
  'sandbox-blocked': { path: string };
  'sandbox-blocked-read-only': { path: string };
  'read-paced': { rate: number };
  'read-paused': { rate: number; seconds: number; pauseSeconds: number; pause: number; count: number };
  'flood-closed': { rate: number; count: number };
  'long-line': { mb: number };
  /** The entry carries `grants`: its words come from those. */
  'grants-changed': None;
  'drain-waiting': { count: number; seconds: number };
  'drain-cut': { count: number; seconds: number };
  /** The entry carries `failure`: its words come from the failure's code. */
  'server-failure': None;
  /** A library's or the system's own words (an error we did not write): shown as they are, in every language. */
  'error-text': { detail: string };
  /** A line the server wrote to stderr: its words. */
  stderr: { line: string };
  /** History's rows from a server's records (audit/file-record.ts, egress/network-record.ts), made by the UI. */
  'file-op': { op: string; path: string; to?: string; bytes?: number; rule?: string };
  'network-row': { what: 'lookup' | 'connect'; verdict: 'allowed' | 'refused'; target: string };
}

export type ActivityCode = keyof ActivityParams;

/** One event: a code and exactly its parameters. */
export type ActivityEvent = { [C in ActivityCode]: keyof ActivityParams[C] extends never ? { code: C; params?: undefined } : { code: C; params: ActivityParams[C] } }[ActivityCode];

/** Every code, for the tests that check each has its words (a Record, so a code left out does not compile). */
const EVERY_CODE: Record<ActivityCode, true> = {
  connected: true,
  disconnected: true,
  'closed-by-server': true,
  'closed-for-flooding': true,
  'reconnect-requested': true,
  'roots-answered': true,
  'list-changed-sent': true,
  'list-changed-failed': true,
  'consent-raised': true,
  'started-with-folders': true,
  'no-reask': true,
  'slow-probe-answer': true,
  'restart-arguments': true,
  'restart-mounts': true,
  'restart-forget': true,
  'restart-reask': true,
  'restart-retry': true,
  'restart-live': true,
  'held-blocked-path': true,
  'held-setup': true,
  'held-exits-at-start': true,
  'config-enabled': true,
  'config-disabled': true,
  'config-sharing-on': true,
  'config-sharing-off': true,
  'config-sandbox-on': true,
  'config-sandbox-off': true,
  'config-network-on': true,
  'config-network-off': true,
  'config-own-sandboxes-on': true,
  'config-own-sandboxes-off': true,
  'config-local-ports': true,
  'config-writable': true,
  'config-hosts-limited': true,
  'config-hosts-any': true,
  'config-limits': true,
  'config-changed': true,
  'hosts-live': true,
  'network-refused': true,
  'limit-tasks': true,
  'limit-memory': true,
  'limit-tmp': true,
  'limit-files': true,
  'sandbox-verified': true,
  'sandbox-verified-view': true,
  'sandbox-unverified': true,
  'live-applied': true,
  'sandbox-blocked': true,
  'sandbox-blocked-read-only': true,
  'read-paced': true,
  'read-paused': true,
  'flood-closed': true,
  'long-line': true,
  'grants-changed': true,
  'drain-waiting': true,
  'drain-cut': true,
  'server-failure': true,
  'error-text': true,
  stderr: true,
  'file-op': true,
  'network-row': true,
};

export const ACTIVITY_CODES = Object.keys(EVERY_CODE) as ActivityCode[];

/** An event from a code and its parameters (the parameters are checked against the code). */
export function activityEvent<C extends ActivityCode>(code: C, ...params: keyof ActivityParams[C] extends never ? [] : [ActivityParams[C]]): ActivityEvent {
  return (params.length > 0 ? { code, params: params[0] } : { code }) as ActivityEvent;
}
