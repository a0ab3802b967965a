// A restart that drains waits for the calls running on the old process to end, up to a limit.
// The caller says how many still run; it tells this each time one ends. Used by the app's
// connections and by `mcp-roots proxy`.
import { CodedError } from '../../../shared/result.js';

/** 'cancelled': the session closed or restarted another way meanwhile; the waiting restart is moot. */
export type DrainOutcome = 'finished' | 'limit' | 'cancelled';

export class DrainWait {
  private check: (() => void) | undefined;
  private settleNow: ((outcome: DrainOutcome) => void) | undefined;

  /** Resolves 'finished' once `running()` is 0 (checked now and at each `callEnded()`), or 'limit' after `limitMs`. */
  wait(running: () => number, limitMs: number): Promise<DrainOutcome> {
    this.cancel();
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle('limit'), limitMs);
      timer.unref();
      const settle = (outcome: DrainOutcome) => {
        clearTimeout(timer);
        if (this.check === check) {
          this.check = undefined;
          this.settleNow = undefined;
        }
        resolve(outcome);
      };
      const check = () => {
        if (running() === 0) settle('finished');
      };
      this.check = check;
      this.settleNow = settle;
      check();
    });
  }

  /** A call ended (answered, failed or cancelled). */
  callEnded(): void {
    this.check?.();
  }

  /** Stops watching (the session closed, or restarted another way): a wait in progress resolves 'cancelled'. */
  cancel(): void {
    this.settleNow?.('cancelled');
  }

  get waiting(): boolean {
    return this.check !== undefined;
  }
}

/** The activity log's and the UI's English for a drain in progress. */
export function drainText(calls: number, limitMs: number): string {
  return `Restarting when ${calls === 1 ? '1 running call finishes' : `${calls} running calls finish`} (at most ${Math.round(limitMs / 1000)} s).`;
}

/** The error a call gets when the restart stopped waiting for it. Says what happened and why; it is not a request to retry. */
export function drainCutText(server: string, reason: string, limitMs: number): string {
  return `${server} was restarted while this call ran, after waiting ${Math.round(limitMs / 1000)} s for it to finish (the most a restart waits). Why it restarted: ${reason}`;
}

/**
 * The tool calls the app's own connection has running on its current process, for a restart to
 * drain: each is tracked while it runs, and one the restart stopped waiting for fails with why.
 */
export class RunningCalls {
  private readonly calls = new Set<{ cut?: string }>();
  private readonly drain = new DrainWait();

  get size(): number {
    return this.calls.size;
  }

  /** Runs one call; `ended` is told after it settles, whichever way. */
  async run<T>(call: () => Promise<T>, ended: (running: number) => void): Promise<T> {
    const entry: { cut?: string } = {};
    this.calls.add(entry);
    try {
      return await call();
    } catch (error) {
      // The restart stopped waiting for it: say that, not the transport's "Connection closed".
      if (entry.cut) throw new CodedError('internal', entry.cut);
      throw error;
    } finally {
      this.calls.delete(entry);
      ended(this.calls.size);
      this.drain.callEnded();
    }
  }

  /** Waits until none runs, at most `limitMs`. */
  drained(limitMs: number): Promise<DrainOutcome> {
    return this.drain.wait(() => this.calls.size, limitMs);
  }

  /** The restart goes on without them: each still running fails with `text` when its process ends. Returns how many. */
  cutAll(text: string): number {
    for (const entry of this.calls) entry.cut = text;
    return this.calls.size;
  }

  /** A drain in progress ends 'cancelled' (the connection was stopped or restarted another way). */
  cancelDrain(): void {
    this.drain.cancel();
  }
}
