// What one server has been told about its roots in its current session, and what we learned of
// its habits across sessions: the facts the roots-change policy decides on. The app's connections
// and the proxy keep one each.
//
// Learning whether a server re-asks: after list_changed, a server that asked before in this
// session has `windowMs` to ask again. One that does not never sees the change (Playwright's MCP
// server asks once and ignores list_changed): it is restarted now, and from then on at once.
export class RootsSession {
  /** The last answer was a non-empty list. */
  toldSomeRoots = false;
  /** It asked at least once in this session (a server that never asks reads the newest when it does). */
  askedThisSession = false;
  /** A list_changed went out and it has not asked since: another one adds nothing. */
  notificationOutstanding = false;
  /** Learned; kept across sessions of the same server. */
  reasks: 'yes' | 'no' | 'unknown' = 'unknown';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly windowMs: number,
    /** Called once when a server fails to ask again in time. */
    private readonly onNoReask: () => void,
  ) {}

  /** A new process or session: nothing told yet. */
  reset(): void {
    clearTimeout(this.timer);
    this.toldSomeRoots = false;
    this.askedThisSession = false;
    this.notificationOutstanding = false;
  }

  /** It asked roots/list and was answered. Returns true when this taught us that it re-asks. */
  answered(rootCount: number): boolean {
    clearTimeout(this.timer);
    const learned = this.notificationOutstanding && this.askedThisSession && this.reasks !== 'yes';
    if (learned) this.reasks = 'yes';
    this.notificationOutstanding = false;
    this.askedThisSession = true;
    this.toldSomeRoots = rootCount > 0;
    return learned;
  }

  /** A list_changed went out. */
  notified(): void {
    this.notificationOutstanding = true;
    if (!this.askedThisSession || this.reasks === 'yes') return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.notificationOutstanding) return;
      this.reasks = 'no';
      this.onNoReask();
    }, this.windowMs);
    this.timer.unref();
  }

  /** The notification could not be sent: nothing is outstanding. */
  notifyFailed(): void {
    clearTimeout(this.timer);
    this.notificationOutstanding = false;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/**
 * Measured (`npm run bench -- --only=reask`, through the app, servers below normal priority, 2 cores
 * at load average 12-16, three runs of 120 re-asks): server-filesystem, server-everything and the
 * roots-echo fixture ask again 0.8-1.3 ms after list_changed at p50; the slowest of each run took
 * 13, 31 and 145 ms. Playwright's MCP server never asks again. 500 ms is 3.5x the slowest re-ask
 * seen, so a server that re-asks is not taken for one that does not (which would cost it a restart
 * on every change), while a change reaches one that does not half a second sooner than with the
 * 1 s guessed before (its first change: the window plus a restart, 2.1 s at that load).
 */
export const DEFAULT_REASK_WINDOW_MS = 500;
