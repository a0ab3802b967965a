// What a running server is told when its folders or its config change. One pure decision, used by
// the app's connections and by `mcp-roots proxy` alike, so the two can never drift apart.
import type { ChangeForecast, RestartWhy, ServerRecord } from '../../../shared/domain.js';
import type { ServerConfinement } from '../../../shared/sandbox.js';
import type { ExposedFolder, Exposure } from '../access/exposure.js';

/** What is known about a server's current process or session. */
export interface SessionFacts {
  /** The folders the running process was started with (its arguments, its sandbox's mounts); undefined when none runs. */
  started: { folders: readonly ExposedFolder[] } | undefined;
  /** A live MCP session that can be sent a notification. */
  connected: boolean;
  era: 'legacy' | 'modern' | undefined;
  /** Folders travel in its arguments or env (`${roots}`): only a new process can change them. */
  injectsRoots: boolean;
  /** Its mounts are its effective roots: the OS sandbox, or a container's `-v` (mountsAreGrants). */
  confined: boolean;
  /**
   * Its sandbox's mounts can change while it runs (holder-launch.ts, live-mounts.ts). Otherwise they
   * are fixed at exec and only a restart changes them.
   */
  liveMounts?: boolean | undefined;
  /** It was last answered a non-empty list. */
  toldSomeRoots: boolean;
  /** Learned from the server: does it ask again after list_changed? */
  reasks: 'yes' | 'no' | 'unknown';
  /**
   * It failed and waits for its next retry (the backoff reaches 30 s). A change to its folders is
   * often the fix (the sandbox blocked a path it needed), so it is retried at once.
   */
  waitingToRetry: boolean;
}

export type { RestartWhy } from '../../../shared/domain.js';

export type RootsAction =
  | { kind: 'none' }
  | { kind: 'notify' }
  /**
   * Change the running sandbox's mounts (live-mounts.ts), then notify or not. Where the live change
   * cannot be made safely (a file held open under a revoked folder…), the caller restarts instead.
   */
  | { kind: 'live'; then: 'notify' | 'none' }
  | { kind: 'restart'; why: RestartWhy };

const NONE: RootsAction = { kind: 'none' };
const NOTIFY: RootsAction = { kind: 'notify' };
const restart = (why: RestartWhy): RootsAction => ({ kind: 'restart', why });

/** Whether a server's mounts are its grants: enforced by the OS sandbox, or a `docker run` container's `-v` mounts. */
export function mountsAreGrants(confinement: ServerConfinement | undefined): boolean {
  return confinement?.state === 'enforced' || confinement?.reasonCode === 'container';
}

/** The server's effective roots changed to `after`: what now? */
export function decideRootsChange(facts: SessionFacts, after: Exposure): RootsAction {
  if (facts.injectsRoots) {
    // Such a server waits, not running, until it has a folder to be started with.
    if (!facts.started) return after.folders.length > 0 ? restart('arguments') : NONE;
    return samePaths(facts.started.folders, after.folders) ? NONE : restart('arguments');
  }
  // Nothing runs: the next start reads the newest folders. One that failed starts now, not after
  // its backoff: a grant is often the person's answer to the failure.
  if (!facts.started) return facts.waitingToRetry ? restart('retry') : NONE;
  // A revoke is only real for a confined server once its mounts are gone, and a grant only reachable once mounted.
  if (facts.confined && !sameMounts(facts.started.folders, after.folders)) {
    // Still starting, it asks for its folders during its handshake and would be told them before
    // they are mounted: a new start mounts them first, as before.
    if (!facts.liveMounts || !facts.connected) return restart('mounts');
    // Mounted live: the session still needs what an unconfined one would. Even its last folder's
    // revoke restarts it: unmounted, the folder is gone from its file system, but servers that keep
    // their folders when told the list is empty (server-filesystem) would go on naming it.
    const session = tellSession(facts, after);
    if (session.kind === 'restart') return session;
    // A folder it may now write arrives whole, its protected paths already read-only inside it
    // (holder-launch.ts addCommands); where that cannot be done, live-mounts.ts restarts it.
    return { kind: 'live', then: session.kind === 'notify' ? 'notify' : 'none' };
  }
  return tellSession(facts, after);
}

/** What the running session must be told once its mounts (if any) hold the new folders. */
function tellSession(facts: SessionFacts, after: Exposure): RootsAction {
  // Still starting: it asks during its handshake and reads the newest list. 2026-07-28 sessions
  // have no list_changed: those servers ask again on every call.
  if (!facts.connected || facts.era === 'modern') return NONE;
  // Servers may keep their previous folders when told the list is empty (server-filesystem does).
  if (after.roots.length === 0 && facts.toldSomeRoots) return restart('forget');
  if (facts.reasks === 'no') return restart('reask');
  return NOTIFY;
}

/**
 * What granting one more folder, or revoking one of its folders, would do now: the same decision as
 * above, asked of a change not made yet, so the UI can say "applies by restarting" before it happens.
 */
export function forecastChange(facts: SessionFacts, current: Exposure): ChangeForecast {
  const restartFor = (after: Exposure) => {
    const action = decideRootsChange(facts, after);
    return action.kind === 'restart' ? action.why : undefined;
  };
  // A folder it does not have: only its path and count matter to the decision.
  const extra: ExposedFolder = { rootId: '(forecast)', path: '/(a folder not granted yet)', serverPath: '/(a folder not granted yet)', mode: 'read-write' };
  const granted: Exposure = {
    rootIds: [...current.rootIds, extra.rootId],
    folders: [...current.folders, extra],
    roots: [...current.roots, { uri: 'file:///(a%20folder%20not%20granted%20yet)' }],
    uris: [...current.uris, 'file:///(a%20folder%20not%20granted%20yet)'],
  };
  const revoked: Exposure = { rootIds: current.rootIds.slice(0, -1), folders: current.folders.slice(0, -1), roots: current.roots.slice(0, -1), uris: current.uris.slice(0, -1) };
  return { grant: restartFor(granted), revoke: current.folders.length > 0 ? restartFor(revoked) : undefined };
}

/**
 * The forecast for a server as its record stands: one that is off or not sharing is told no folders
 * whatever it is granted, so a grant or revoke changes nothing it runs. The app's connections and
 * `mcp-roots proxy` (which writes it into its status file) both ask this.
 */
export function forecastFor(record: Pick<ServerRecord, 'enabled' | 'sharing'>, facts: SessionFacts, current: Exposure): ChangeForecast {
  return record.enabled && record.sharing ? forecastChange(facts, current) : {};
}

/**
 * Whether a config change needs a new process or session: capabilities, the command, the sandbox (and its limits)
 * and the path mapping are all fixed when it starts. A new name or consent setting needs nothing.
 * (Enabling and disabling start and stop it; that is not a restart.)
 */
export function needsRestart(before: ServerRecord, after: ServerRecord, grantedAfter?: ReadonlySet<string>): boolean {
  return (
    before.sharing !== after.sharing ||
    before.sandbox !== after.sandbox ||
    before.network !== after.network ||
    (before.ownSandboxes === true) !== (after.ownSandboxes === true) ||
    // pasta forwards the local ports it was given at the server's start (private-network.ts).
    JSON.stringify(before.allowLocal ?? []) !== JSON.stringify(after.allowLocal ?? []) ||
    // Any host or a list: a different resolver and pasta's settings, fixed at start. One list for
    // another is applied live (hostsChangedLive).
    (before.allowHosts === undefined) !== (after.allowHosts === undefined) ||
    JSON.stringify(before.transport) !== JSON.stringify(after.transport) ||
    JSON.stringify(before.pathMap ?? []) !== JSON.stringify(after.pathMap ?? []) ||
    JSON.stringify(before.limits ?? {}) !== JSON.stringify(after.limits ?? {}) ||
    // The protected paths are bound at start: a choice takes effect (or is withdrawn) by a restart.
    choicesDiffer(before, after, grantedAfter)
  );
}

/**
 * Whether a grant's opt-in changed where it still counts: for the folders granted after the change
 * (when known). A choice that went with its grant's revoke leaves with the folder's live unmount;
 * a choice cleared on a folder still granted must be in force, which only a new start does.
 */
function choicesDiffer(before: ServerRecord, after: ServerRecord, grantedAfter: ReadonlySet<string> | undefined): boolean {
  const pick = (record: ServerRecord) =>
    Object.fromEntries(Object.entries(record.writableByChoice ?? {}).filter(([rootId, names]) => names.length > 0 && (!grantedAfter || grantedAfter.has(rootId))).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify(pick(before)) !== JSON.stringify(pick(after));
}

/** Whether a list of allowed hosts changed to another list: applied to the running server without a restart. */
export function hostsChangedLive(before: ServerRecord, after: ServerRecord): boolean {
  return before.allowHosts !== undefined && after.allowHosts !== undefined && JSON.stringify(before.allowHosts) !== JSON.stringify(after.allowHosts);
}

function samePaths(a: readonly ExposedFolder[], b: readonly ExposedFolder[]): boolean {
  return a.length === b.length && a.every((folder, i) => folder.path === b[i]?.path && folder.serverPath === b[i]?.serverPath);
}

function sameMounts(a: readonly ExposedFolder[], b: readonly ExposedFolder[]): boolean {
  return a.length === b.length && a.every((folder, i) => samePaths([folder], [b[i] as ExposedFolder]) && folder.mode === b[i]?.mode);
}
