// The one roots-change driver both the app's connections and the proxy use, against a recording
// port: what it tells, restarts and mounts live, by activity code.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExposedFolder, Exposure } from '../../../../electron/host/access/exposure.js';
import { RootsChangeDriver, type RootsChangePort } from '../../../../electron/host/connections/roots-change-driver.js';
import type { LiveChange, LiveGrants } from '../../../../electron/host/sandbox/confine-stdio.js';
import type { ActivityEvent } from '../../../../shared/activity-event.js';
import type { SandboxSelfCheck } from '../../../../shared/sandbox.js';

const folder = (path: string): ExposedFolder => ({ rootId: path, path, serverPath: path, mode: 'read-write' });
const exposure = (...paths: string[]): Exposure => ({
  rootIds: paths,
  roots: paths.map((path) => ({ uri: `file://${path}` })),
  uris: paths.map((path) => `file://${path}`),
  folders: paths.map(folder),
});
const CHECK: SandboxSelfCheck = { verified: true, detail: 'ok', at: 0 } as SandboxSelfCheck;

function recordingPort(patch: Partial<RootsChangePort> = {}) {
  const seen = { sent: 0, restarts: [] as ActivityEvent[], codes: [] as string[], rereads: [] as boolean[], verified: 0, failNext: undefined as (() => void) | undefined };
  let generation = 1;
  const port: RootsChangePort = {
    generation: () => generation,
    connected: () => true,
    era: () => 'legacy',
    injectsRoots: () => false,
    confinement: () => undefined,
    startingSandboxed: () => false,
    waitingToRetry: () => false,
    liveTarget: () => ({ live: undefined, pid: 42, writableByChoice: undefined }),
    mayNotify: () => true,
    sendListChanged: (failed) => {
      seen.sent++;
      seen.failNext = failed;
      return true;
    },
    restart: (event) => void seen.restarts.push(event),
    verified: () => void seen.verified++,
    rereadsRoots: (value) => void seen.rereads.push(value),
    activity: (_kind, event) => void seen.codes.push(event.code),
    ...patch,
  };
  return { port, seen, bump: () => generation++ };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RootsChangeDriver', () => {
  it('tells a connected session by list_changed, once until it asks again', () => {
    const { port, seen } = recordingPort();
    const driver = new RootsChangeDriver(port);
    driver.startedWith(exposure('/a').folders);
    driver.answered(1);
    expect(driver.changed(exposure('/a', '/b'))).toBe(true);
    expect(seen.sent).toBe(1);
    // Outstanding: its next roots/list reads the newest list anyway.
    expect(driver.changed(exposure('/b'))).toBe(false);
    expect(seen.sent).toBe(1);
    // It asked again: learned that it re-reads, and the next change is told.
    driver.answered(1);
    expect(seen.rereads).toEqual([true]);
    expect(driver.changed(exposure('/a'))).toBe(true);
    expect(seen.sent).toBe(2);
    // A notification that was not delivered leaves nothing outstanding.
    seen.failNext?.();
    expect(driver.changed(exposure('/c'))).toBe(true);
    expect(seen.sent).toBe(3);
    expect(seen.restarts).toEqual([]);
  });

  it('tells nothing where the owner may not (sharing off) or nothing runs', () => {
    const off = recordingPort({ mayNotify: () => false });
    const driver = new RootsChangeDriver(off.port);
    driver.startedWith([]);
    expect(driver.changed(exposure('/a'))).toBe(false);
    expect(off.seen.sent).toBe(0);
    const idle = recordingPort();
    expect(new RootsChangeDriver(idle.port).changed(exposure('/a'))).toBe(false);
    expect(idle.seen).toMatchObject({ sent: 0, restarts: [] });
  });

  it("restarts by policy with its 'restart-*' code, expected: folders in its arguments, a revoke of its last folder, a held server", () => {
    const injected = recordingPort({ injectsRoots: () => true });
    const a = new RootsChangeDriver(injected.port);
    a.startedWith(exposure('/a').folders);
    expect(a.changed(exposure('/a', '/b'))).toBe(true);
    expect(injected.seen.restarts).toEqual([{ code: 'restart-arguments' }]);
    // Its next roots/list answers that restart: expected once, then its own wish again.
    expect(a.answered(2)).toBe(true);
    expect(a.answered(2)).toBe(false);

    const told = recordingPort();
    const b = new RootsChangeDriver(told.port);
    b.startedWith(exposure('/a').folders);
    b.answered(1);
    b.changed(exposure());
    expect(told.seen.restarts).toEqual([{ code: 'restart-forget' }]);
    // The person's Reconnect cuts the policy's restart short: its next ask is its own wish.
    b.forgetRestart();
    expect(b.answered(0)).toBe(false);

    const held = recordingPort({ waitingToRetry: () => true, connected: () => false });
    new RootsChangeDriver(held.port).changed(exposure('/a'));
    expect(held.seen.restarts).toEqual([{ code: 'restart-retry' }]);
  });

  it("a server that does not ask again in the window: 'no-reask', then 'restart-reask' (not expected), and from then on at once", () => {
    vi.useFakeTimers();
    const { port, seen } = recordingPort();
    const driver = new RootsChangeDriver(port, 100);
    driver.startedWith(exposure('/a').folders);
    driver.answered(1);
    driver.changed(exposure('/a', '/b'));
    expect(seen.sent).toBe(1);
    vi.advanceTimersByTime(100);
    expect(seen.rereads).toEqual([false]);
    expect(seen.codes).toEqual(['no-reask']);
    expect(seen.restarts).toEqual([{ code: 'restart-reask' }]);
    expect(driver.reasks).toBe('no');
    // The restarted session: its first ask is not marked expected (as before the driver), and a
    // change now restarts it by policy, without a list_changed first; that restart's ask is expected.
    driver.newSession();
    expect(driver.answered(2)).toBe(false);
    driver.changed(exposure('/b'));
    expect(seen.sent).toBe(1);
    expect(seen.restarts.at(-1)).toEqual({ code: 'restart-reask' });
    expect(driver.answered(1)).toBe(true);
  });

  it('a confined session with live mounts gets them changed live, verified, logged, then told', async () => {
    const applied: LiveChange = { kind: 'applied', check: CHECK, added: ['/b'], revoked: [], ms: 12 };
    const live: LiveGrants = { available: true, apply: vi.fn(async () => applied) } as unknown as LiveGrants;
    let done = 0;
    const { port, seen } = recordingPort({
      confinement: () => ({ state: 'enforced' }) as ReturnType<RootsChangePort['confinement']>,
      liveTarget: () => ({ live, pid: 42, writableByChoice: undefined }),
      beginApplying: () => () => void done++,
    });
    const driver = new RootsChangeDriver(port);
    driver.startedWith(exposure('/a').folders);
    driver.answered(1);
    expect(driver.changed(exposure('/a', '/b'))).toBe(true);
    await vi.waitFor(() => expect(seen.sent).toBe(1));
    expect(seen.verified).toBe(1);
    expect(seen.codes).toEqual(['live-applied']);
    expect(done).toBe(1);
    // Its mounts are the new folders now: the same list again changes nothing.
    expect(driver.facts().started?.folders.map((f) => f.path)).toEqual(['/a', '/b']);
  });

  it("a live change that cannot be made restarts it ('restart-live' with why), and one that returns to a replaced session is dropped", async () => {
    const pending: { finish?: ((change: LiveChange) => void) | undefined } = {};
    const live: LiveGrants = { available: true, apply: () => new Promise<LiveChange>((resolve) => (pending.finish = resolve)) } as unknown as LiveGrants;
    const finishWith = (change: LiveChange) => pending.finish?.(change);
    const { port, seen, bump } = recordingPort({
      confinement: () => ({ state: 'enforced' }) as ReturnType<RootsChangePort['confinement']>,
      liveTarget: () => ({ live, pid: 42, writableByChoice: undefined }),
    });
    const driver = new RootsChangeDriver(port);
    driver.startedWith(exposure('/a').folders);
    driver.answered(1);
    driver.changed(exposure('/a', '/b'));
    await vi.waitFor(() => expect(pending.finish).toBeDefined());
    finishWith({ kind: 'restart', reason: { why: 'failed', detail: 'EBUSY' } });
    await vi.waitFor(() => expect(seen.restarts).toHaveLength(1));
    expect(seen.restarts[0]).toEqual({ code: 'restart-live', params: { why: 'failed', detail: 'EBUSY' } });

    pending.finish = undefined;
    driver.changed(exposure('/a'));
    await vi.waitFor(() => expect(pending.finish).toBeDefined());
    bump();
    finishWith({ kind: 'restart', reason: { why: 'failed' } });
    // Every promise reaction runs before the next macrotask: the driver has seen the answer by then.
    await new Promise((resolve) => setImmediate(resolve));
    // Nothing follows for a session that is gone: the restart count stays, no list_changed goes out.
    expect(seen.restarts).toHaveLength(1);
    expect(seen.sent).toBe(0);
  });
});
