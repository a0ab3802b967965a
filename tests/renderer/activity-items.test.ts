// The activity log as people read it: stderr blocks in order, repeats collapsed with a count.
import { describe, expect, it } from 'vitest';
import type { ActivityEntry, ActivityKind } from '../../shared/domain.js';
import { activityItems, activityText } from '../../renderer/src/components/activity-items.js';

let seq = 0;
const entry = (kind: ActivityKind, message: string, at: number, extra: Partial<ActivityEntry> = {}): ActivityEntry => ({
  seq: ++seq,
  at,
  kind,
  message,
  ...(kind === 'stderr' ? { code: 'stderr' as const, params: { line: message } } : { code: 'error-text' as const, params: { detail: message } }),
  ...extra,
});

describe('activityItems', () => {
  it('keeps a multi-line stderr message as one block, in the order it was written', () => {
    const items = activityItems([
      entry('stderr', 'Error: GITHUB_TOKEN environment variable is required', 1000),
      entry('stderr', '    at main (/app/index.js:12:11)', 1001),
      entry('stderr', '    at node:internal/main:1:1', 1002),
      entry('error', 'exited with code 1', 1003),
    ]);
    expect(items.map((item) => [item.kind, item.entries.map((e) => e.message)])).toEqual([
      ['stderr', ['Error: GITHUB_TOKEN environment variable is required', '    at main (/app/index.js:12:11)', '    at node:internal/main:1:1']],
      ['error', ['exited with code 1']],
    ]);
  });

  it('collapses 36 identical retries into one row with a count and a time range', () => {
    const entries = Array.from({ length: 36 }, (_, index) => entry('error', 'command not found: npxx (did you mean npx?)', 1000 + index * 5000));
    const items = activityItems(entries);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ count: 36, firstAt: 1000, lastAt: 1000 + 35 * 5000 });
  });

  it('collapses a repeating cycle of output then error', () => {
    const cycle = (at: number) => [entry('stderr', 'Error: token required', at), entry('error', 'exited with code 1: Error: token required', at + 1)];
    const items = activityItems([entry('restart', 'The server configuration changed.', 0), ...cycle(10_000), ...cycle(20_000), ...cycle(40_000)]);
    expect(items.map((item) => [item.kind, item.count])).toEqual([
      ['restart', 1],
      ['stderr', 3],
      ['error', 3],
    ]);
  });

  it('collapses a start that keeps ending: connected, verified (a new pid each time), asked, closed (#30 item 5)', () => {
    const start = (at: number, pid: number) => [
      entry('connect', 'Connected (protocol 2025-06-18).', at, { code: 'connected', params: { protocol: '2025-06-18', server: '' } }),
      entry('info', `Sandbox verified (pid ${pid}): …`, at + 1, { code: 'sandbox-verified-view', params: { pid, count: 1, sockets: 'refused' } }),
      entry('roots-request', 'Asked for its folders; was told 1 folder.', at + 2, { code: 'roots-answered', params: { count: 1 } }),
      entry('disconnect', 'The server closed the connection.', at + 3, { code: 'closed-by-server' }),
      entry('error', 'Exited with code 0.', at + 4, { code: 'server-failure', failure: { code: 'exited', message: 'Exited with code 0.', exitCode: 0 } }),
    ];
    const items = activityItems([...start(0, 41), ...start(30_000, 57), ...start(60_000, 63), ...start(90_000, 70)]);
    expect(items.map((item) => [item.kind, item.count])).toEqual([
      ['connect', 4],
      ['info', 4],
      ['roots-request', 4],
      ['disconnect', 4],
      ['error', 4],
    ]);
    // A different exit is a different happening: not folded into the run.
    const other = activityItems([...start(0, 41), ...start(30_000, 57), entry('error', 'Exited with code 1.', 60_000, { code: 'server-failure', failure: { code: 'exited', message: 'Exited with code 1.', exitCode: 1 } })]);
    expect(other.map((item) => item.count)).toEqual([2, 2, 2, 2, 2, 1]);
  });

  it('counts the host’s own folds, and filters by kind', () => {
    const entries = [
      entry('connect', 'Connected.', 1),
      entry('roots-request', 'Asked for roots; answered 1.', 2, { count: 5 }),
      entry('stderr', 'noise', 3),
      entry('roots-request', 'Asked for roots; answered 2.', 4),
    ];
    expect(activityItems(entries, 'folders').map((item) => item.count)).toEqual([5, 1]);
    expect(activityItems(entries, 'problems').map((item) => item.kind)).toEqual(['stderr']);
    expect(activityItems(entries, 'connection').map((item) => item.kind)).toEqual(['connect']);
  });

  it('copies as plain text, oldest first, with counts and answered folders', () => {
    const items = activityItems([entry('roots-request', 'Asked for roots; answered 1.', 0, { uris: ['file:///a'], count: 2 }), entry('stderr', 'line 1', 5), entry('stderr', 'line 2', 6)]);
    expect(activityText(items, (kind) => kind, (at) => `t${at}`)).toBe('t0  roots-request (×2)\n    Asked for roots; answered 1.\n    file:///a\nt5  stderr\n    line 1\n    line 2');
  });
});
