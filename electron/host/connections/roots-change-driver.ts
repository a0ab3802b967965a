// What happens when a running server's effective roots change, once, for the app's connections
// (server-connection.ts) and for `mcp-roots proxy` (roots-proxy.ts): the facts the policy decides
// on, the decision (roots-change-policy.ts), a live change of its sandbox's mounts (live-grants.ts),
// and the restart of a server that does not ask again after list_changed. The owner keeps its
// session and transport, and answers through the small port below.
import type { ActivityEvent } from '../../../shared/activity-event.js';
import type { ActivityKind, ChangeForecast, ServerRecord } from '../../../shared/domain.js';
import type { SandboxSelfCheck, ServerConfinement } from '../../../shared/sandbox.js';
import type { ExposedFolder, Exposure } from '../access/exposure.js';
import type { LiveGrants } from '../sandbox/confine-stdio.js';
import { liveChangeEvent, restartEvent } from './activity-events.js';
import { applyLiveGrants } from './live-grants.js';
import { decideRootsChange, forecastFor, mountsAreGrants, type SessionFacts } from './roots-change-policy.js';
import { DEFAULT_REASK_WINDOW_MS, RootsSession } from './roots-session.js';

export type { Exposure, ExposedFolder } from '../access/exposure.js';
// The config-change half of the same policy: the proxy reads every change decision from this module.
export { hostsChangedLive, needsRestart } from './roots-change-policy.js';
export { DEFAULT_REASK_WINDOW_MS } from './roots-session.js';

/** What only the owner of a session knows, and what it does when the driver asks. */
export interface RootsChangePort {
  /** A counter bumped whenever its session or process is replaced or ended: a live change that returns to another one is dropped. */
  generation(): number;
  /** A live MCP session that can be sent a notification. */
  connected(): boolean;
  era(): 'legacy' | 'modern' | undefined;
  /** Folders travel in its arguments or env (`${roots}`). */
  injectsRoots(): boolean;
  /** Its confinement as known now (its mounts may be its grants: mountsAreGrants). */
  confinement(): ServerConfinement | undefined;
  /** A sandboxed start is being prepared: it will mount the folders it was planned with. */
  startingSandboxed(): boolean;
  /** It failed and waits for a retry or a change; a change of its folders starts it at once. */
  waitingToRetry(): boolean;
  /** The running sandbox's live grants, its pid and the per-grant choices it was started with. */
  liveTarget(): { live: LiveGrants | undefined; pid: number | null | undefined; writableByChoice: ServerRecord['writableByChoice'] };
  /** Whether a list_changed may go to it now (sharing on, for the app's connections). */
  mayNotify(): boolean;
  /**
   * Sends notifications/roots/list_changed; false when nothing could take it. `failed` is called if
   * it is then not delivered, so the session does not wait for an answer to it.
   */
  sendListChanged(failed: () => void): boolean;
  /** Restart the server so the change takes effect, logging `event` as why. */
  restart(event: ActivityEvent): void;
  /** Its mounts were changed live and proved again by this check. */
  verified(check: SandboxSelfCheck): void;
  /** Learned whether it asks again after list_changed. */
  rereadsRoots(value: boolean): void;
  activity(kind: ActivityKind, event: ActivityEvent): void;
  /** Marks a change being applied to the running session until the returned call (the app's 'applying-grants'). */
  beginApplying?(): () => void;
}

export class RootsChangeDriver {
  /** The folders the running process was started with (arguments, sandbox mounts), or is being changed to. */
  private startedFolders: readonly ExposedFolder[] | undefined;
  /** What this session was told, and whether the server re-asks after list_changed. */
  private readonly session: RootsSession;
  /**
   * The policy restarted it (to revoke its last folder, for new mounts...): its next roots/list
   * answers that restart, not a new wish for folders, so it raises no consent. Kept across the
   * restart's sessions until that answer, or until the person's Reconnect (forgetRestart).
   */
  private restartAwaitsAnswer = false;

  constructor(
    private readonly port: RootsChangePort,
    reaskWindowMs = DEFAULT_REASK_WINDOW_MS,
  ) {
    this.session = new RootsSession(reaskWindowMs, () => this.didNotReask());
  }

  /** A process is being started with these folders: a change from now restarts or tells it. */
  startedWith(folders: readonly ExposedFolder[]): void {
    this.startedFolders = folders;
  }

  /** No process runs (it ended, failed to start, or is being replaced). */
  notRunning(): void {
    this.startedFolders = undefined;
  }

  /** A new process or session: nothing told yet. */
  newSession(): void {
    this.session.reset();
  }

  /** The owner is done with it for good. */
  stop(): void {
    this.session.stop();
  }

  /** It asked roots/list and was answered `rootCount` roots. Returns whether the ask answers a restart the policy made (it is expected). */
  answered(rootCount: number): boolean {
    if (this.session.answered(rootCount)) this.port.rereadsRoots(true);
    const expected = this.restartAwaitsAnswer;
    this.restartAwaitsAnswer = false;
    return expected;
  }

  /** Restarted by the person (Reconnect): its next roots/list is its own wish again. */
  forgetRestart(): void {
    this.restartAwaitsAnswer = false;
  }

  /** A restart by the policy: its next roots/list is expected. */
  private restartForChange(event: ActivityEvent): void {
    this.restartAwaitsAnswer = true;
    this.port.restart(event);
  }

  /** Learned from the server: does it ask again after list_changed? */
  get reasks(): 'yes' | 'no' | 'unknown' {
    return this.session.reasks;
  }

  /**
   * Its effective roots changed to `after`: do what the policy says (tell it, change its mounts
   * live, restart it, nothing). Returns whether a list_changed went out or a change began.
   */
  changed(after: Exposure): boolean {
    const action = decideRootsChange(this.facts(), after);
    if (action.kind === 'none') return false;
    if (action.kind === 'restart') {
      this.restartForChange(restartEvent(action.why));
      return true;
    }
    if (action.kind === 'live') {
      void this.applyLive(after, action.then === 'notify');
      return true;
    }
    return this.notify();
  }

  /** What granting or revoking one of its folders would do now (the decision, asked ahead). */
  forecast(record: Pick<ServerRecord, 'enabled' | 'sharing'>, current: Exposure): ChangeForecast {
    return forecastFor(record, this.facts(), current);
  }

  facts(): SessionFacts {
    const port = this.port;
    return {
      started: this.startedFolders ? { folders: this.startedFolders } : undefined,
      connected: port.connected(),
      era: port.era(),
      injectsRoots: port.injectsRoots(),
      // While a start is being prepared its confinement is not known yet, but a sandboxed one will
      // mount the folders it was planned with: a change then must restart it, not be told unmounted.
      confined: mountsAreGrants(port.confinement()) || port.startingSandboxed(),
      liveMounts: port.liveTarget().live?.available === true,
      toldSomeRoots: this.session.toldSomeRoots,
      reasks: this.session.reasks,
      waitingToRetry: port.waitingToRetry(),
    };
  }

  /**
   * Tells the session its list changed. While a notification is outstanding (the server has not
   * asked since), another adds nothing: its next roots/list reads the newest list anyway.
   */
  private notify(): boolean {
    if (this.session.notificationOutstanding || !this.port.mayNotify()) return false;
    if (!this.port.sendListChanged(() => this.session.notifyFailed())) return false;
    this.session.notified();
    return true;
  }

  /** Mounts the new folders into the running sandbox (live-grants.ts), or restarts it where that cannot be done safely. */
  private async applyLive(after: Exposure, notify: boolean): Promise<void> {
    const generation = this.port.generation();
    // From here the sandbox is being changed to these folders: the next change compares with them.
    this.startedFolders = after.folders;
    const applied = this.port.beginApplying?.() ?? (() => undefined);
    const { live, pid, writableByChoice } = this.port.liveTarget();
    const change = await applyLiveGrants(live, pid, after, writableByChoice).finally(applied);
    if (generation !== this.port.generation()) return;
    if (change.kind === 'restart') {
      this.restartForChange({ code: 'restart-live', params: change.reason });
      return;
    }
    if (change.kind === 'applied') {
      this.port.verified(change.check);
      this.port.activity('info', liveChangeEvent(change));
    }
    if (notify) this.notify();
  }

  /** It did not ask again after list_changed: restart it now, and learn that changes reach it so. */
  private didNotReask(): void {
    this.port.rereadsRoots(false);
    this.port.activity('info', { code: 'no-reask', params: { windowMs: this.session.windowMs } });
    // Not marked expected, as before the driver: the restart is the server's habit, not the change's.
    this.port.restart(restartEvent('reask'));
  }
}
