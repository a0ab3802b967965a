// The proxy's watch on its parent: one call when the parent changes, none while it stays, none after the stop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchParent } from '../../../electron/proxy/parent-watch.js';

afterEach(() => vi.useRealTimers());

describe('watchParent', () => {
  it('says once, with the former parent, when the parent changes; never while it stays', () => {
    vi.useFakeTimers();
    let parent = 4242;
    const gone = vi.fn();
    watchParent(gone, { intervalMs: 1000, ppid: () => parent });
    vi.advanceTimersByTime(5000);
    expect(gone).not.toHaveBeenCalled();
    parent = 1;
    vi.advanceTimersByTime(1000);
    expect(gone).toHaveBeenCalledExactlyOnceWith(4242);
    parent = 7;
    vi.advanceTimersByTime(5000);
    expect(gone).toHaveBeenCalledOnce();
  });

  it('says nothing once stopped', () => {
    vi.useFakeTimers();
    let parent = 10;
    const gone = vi.fn();
    const stop = watchParent(gone, { intervalMs: 1000, ppid: () => parent });
    stop();
    parent = 1;
    vi.advanceTimersByTime(5000);
    expect(gone).not.toHaveBeenCalled();
  });
});
