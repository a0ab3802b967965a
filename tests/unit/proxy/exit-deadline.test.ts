import { afterEach, describe, expect, it, vi } from 'vitest';
import { armExitDeadline } from '../../../electron/proxy/exit-deadline.js';

afterEach(() => vi.useRealTimers());

describe('armExitDeadline', () => {
  it('kills the servers still running, then exits, once the deadline passes', () => {
    vi.useFakeTimers();
    const order: string[] = [];
    armExitDeadline({
      serverPids: () => [101, 102],
      log: () => order.push('log'),
      kill: (pid, signal) => order.push(`${signal} ${pid}`),
      exit: (code) => order.push(`exit ${code}`),
      afterMs: 1000,
    });
    vi.advanceTimersByTime(999);
    expect(order).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['log', 'SIGKILL 101', 'SIGKILL 102', 'exit 0']);
  });

  it('a server already gone does not stop the exit; a disarmed deadline does nothing', () => {
    vi.useFakeTimers();
    const exit = vi.fn();
    armExitDeadline({ serverPids: () => [7], log: () => undefined, kill: () => { throw new Error('ESRCH'); }, exit, afterMs: 10 });
    vi.advanceTimersByTime(10);
    expect(exit).toHaveBeenCalledWith(0);
    const never = vi.fn();
    armExitDeadline({ serverPids: () => [], log: () => undefined, exit: never, afterMs: 10 })();
    vi.advanceTimersByTime(20);
    expect(never).not.toHaveBeenCalled();
  });
});
