// Waits for notified servers to come back for their roots/list (bounded by a timeout): the edit
// pipeline holds its disk write until then so it does not slow their round trip.
import type { ServerId } from '../../../shared/domain.js';

export class RefetchWaiters {
  private readonly waiting = new Map<ServerId, (() => void)[]>();

  wait(serverIds: readonly ServerId[], timeoutMs: number): Promise<void> {
    if (serverIds.length === 0) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      let pending = serverIds.length;
      const timer = setTimeout(resolve, timeoutMs);
      const one = () => {
        if (--pending > 0) return;
        clearTimeout(timer);
        resolve();
      };
      for (const id of serverIds) this.waiting.set(id, [...(this.waiting.get(id) ?? []), one]);
    });
  }

  /** A server asked roots/list. */
  arrived(serverId: ServerId): void {
    const waiters = this.waiting.get(serverId);
    if (!waiters) return;
    this.waiting.delete(serverId);
    for (const waiter of waiters) waiter();
  }

  forget(serverId: ServerId): void {
    this.arrived(serverId);
  }
}
