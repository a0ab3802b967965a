import { describe, expect, it } from 'vitest';
import { DrainWait, drainCutText, drainText, RunningCalls } from '../../../../electron/host/connections/drain-wait.js';

describe('drain wait', () => {
  it('finishes at once when nothing runs', async () => {
    await expect(new DrainWait().wait(() => 0, 10_000)).resolves.toBe('finished');
  });

  it('finishes when the last running call ends, not before', async () => {
    const drain = new DrainWait();
    let running = 2;
    let outcome: string | undefined;
    const waited = drain.wait(() => running, 10_000).then((result) => (outcome = result));
    running = 1;
    drain.callEnded();
    await Promise.resolve();
    expect(outcome).toBeUndefined();
    expect(drain.waiting).toBe(true);
    running = 0;
    drain.callEnded();
    await expect(waited).resolves.toBe('finished');
    expect(drain.waiting).toBe(false);
  });

  it('gives up at the limit', async () => {
    const started = Date.now();
    await expect(new DrainWait().wait(() => 1, 50)).resolves.toBe('limit');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('a cancelled wait resolves cancelled', async () => {
    const drain = new DrainWait();
    const waited = drain.wait(() => 1, 10_000);
    drain.cancel();
    await expect(waited).resolves.toBe('cancelled');
  });

  it('says what it waits for and, when it gave up, what happened and why: never "please retry"', () => {
    expect(drainText(1, 30_000)).toBe('Restarting when 1 running call finishes (at most 30 s).');
    expect(drainText(3, 30_000)).toBe('Restarting when 3 running calls finish (at most 30 s).');
    const cut = drainCutText('filesystem', 'Sandbox turned on.', 30_000);
    expect(cut).toContain('filesystem was restarted while this call ran');
    expect(cut).toContain('30 s');
    expect(cut).toContain('Sandbox turned on.');
    expect(cut).not.toMatch(/retry/i);
  });

  it('running calls: a drain waits for them; one cut off fails with why instead of the transport’s words', async () => {
    const calls = new RunningCalls();
    const counts: number[] = [];
    let finish!: () => void;
    let fail!: (error: Error) => void;
    const quick = calls.run(() => new Promise<string>((resolve) => (finish = () => resolve('done'))), (running) => counts.push(running));
    const stuck = calls.run(() => new Promise<string>((_, reject) => (fail = reject)), (running) => counts.push(running));
    expect(calls.size).toBe(2);
    const drained = calls.drained(10_000);
    finish();
    await expect(quick).resolves.toBe('done');
    expect(calls.cutAll('fs was restarted while this call ran.')).toBe(1);
    fail(new Error('Connection closed'));
    await expect(stuck).rejects.toThrow('fs was restarted while this call ran.');
    await expect(drained).resolves.toBe('finished');
    expect(counts).toEqual([1, 0]);
  });
});
