// After each (re)start a server asks for its folders (roots/list) just after the handshake; a call
// that reaches it before that answer sees none (server-filesystem listed no allowed directories for
// ~100 ms after each start). So a host's calls wait for the first answer, or for a short limit: some
// servers never ask at start (Playwright asks on its first tool call), and those must not wait long.
// Used by the app's connections and by `mcp-roots proxy` alike.

/** How long calls wait for a server that does not ask for its folders after its handshake. */
export const FIRST_ROOTS_WAIT_MS = 1000;
/**
 * How long after the answer calls still wait: servers apply it asynchronously (server-filesystem
 * checks each folder on disk first, and a call that overtook that check still listed none).
 */
export const FIRST_ROOTS_SETTLE_MS = 100;

export class FirstRootsGate {
  private pending: { done: Promise<void>; release: () => void; timer: NodeJS.Timeout } | undefined;

  /** True from a handshake until the server's first roots/list is answered (or the limit passed). */
  get holding(): boolean {
    return this.pending !== undefined;
  }

  /** The handshake is done: hold calls until `release()` or `limitMs`; `released` runs once either way. */
  hold(limitMs = FIRST_ROOTS_WAIT_MS, released?: () => void): void {
    this.release();
    let resolve!: () => void;
    const done = new Promise<void>((ok) => (resolve = ok));
    const pending = {
      done,
      release: () => {
        clearTimeout(pending.timer);
        if (this.pending === pending) this.pending = undefined;
        resolve();
        released?.();
      },
      timer: setTimeout(() => pending.release(), limitMs),
    };
    pending.timer.unref();
    this.pending = pending;
  }

  /** Its first roots/list was answered: calls go on once the server has had time to apply it. */
  answered(): void {
    const pending = this.pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.timer = setTimeout(() => pending.release(), FIRST_ROOTS_SETTLE_MS);
    pending.timer.unref();
  }

  /** The session ended (or a new one starts): calls go on at once. */
  release(): void {
    this.pending?.release();
  }

  /** Resolves when calls may go to the server. */
  passed(): Promise<void> {
    return this.pending?.done ?? Promise.resolve();
  }
}
