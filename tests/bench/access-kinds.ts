// Section 6, the monitor alone: how soon each kind of accessibility change is noticed with 1,000
// roots in one folder, by events only (the sweep off), what the monitor costs while nothing
// happens (the default sweep on), and how many inotify watches it holds per root. Runs in its own
// process (access-kinds-child.ts), as a user permissions apply to, so that the process's CPU time
// is the monitor's and a chmod is something it can see.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AccessMonitor, DEFAULT_FULL_SWEEP_EVERY, DEFAULT_SWEEP_MS, type MonitoredRoot } from '../../electron/host/access/access-monitor.js';
import type { RootAccess } from '../../shared/domain.js';

export type Kind = 'deleted' | 'restored' | 'renamed' | 'parent renamed' | 'permissions changed' | 'swapped for a symlink';

export interface KindsResult {
  uid: number | undefined;
  rootCount: number;
  /** Milliseconds from the change to the monitor's `change` event saying so, per kind. */
  samples: Partial<Record<Kind, number[]>>;
  /** Kinds this process cannot see, and why. */
  skipped: Partial<Record<Kind, string>>;
  /** inotify watches held for 1,000 roots in one folder, and for 1,000 roots each in its own folder. */
  watchesOneFolder: number;
  watchesSpread: number;
  /** The bench folder and every directory above it (watched once, shared by every root). */
  sharedAncestors: number;
  /**
   * Idle CPU (% of one core) over one cycle of the safety net: the monitor's own work (measured
   * around each sweep), the whole process with the monitor, and the same process without one.
   */
  idle?: { seconds: number; ownPercent: number; processPercent: number; floorPercent: number; sweepMs: number; fullSweepMs: number };
}

const TIMEOUT_MS = 10_000;

/** Resolves with the time at which every root in `ids` has been reported in `state` (or rejects). */
function noticed(monitor: AccessMonitor, ids: readonly string[], state: RootAccess['state']): Promise<number> {
  const waiting = new Set(ids);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      monitor.off('change', onChange);
      reject(new Error(`${waiting.size} root(s) not seen ${state} within ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    const onChange = (changed: ReadonlyMap<string, RootAccess>) => {
      for (const [id, access] of changed) if (access.state === state) waiting.delete(id);
      if (waiting.size > 0) return;
      const at = performance.now();
      clearTimeout(timer);
      monitor.off('change', onChange);
      resolve(at);
    };
    monitor.on('change', onChange);
  });
}

async function timed(monitor: AccessMonitor, ids: readonly string[], state: RootAccess['state'], change: () => void): Promise<number> {
  const seen = noticed(monitor, ids, state);
  const start = performance.now();
  change();
  return (await seen) - start;
}

async function cpuPercentOver(ms: number): Promise<number> {
  const before = process.cpuUsage();
  const start = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1000 / (performance.now() - start)) * 100;
}

function folders(base: string, count: number, spread: boolean): MonitoredRoot[] {
  return Array.from({ length: count }, (_, i) => {
    const canonicalPath = spread ? path.join(base, `parent-${i}`, 'project') : path.join(base, 'parent', `project-${i}`);
    fs.mkdirSync(canonicalPath, { recursive: true });
    return { id: `r${i}`, canonicalPath };
  });
}

/** `idle`: also measure one whole cycle of the safety net, twice (with and without a monitor: ~61 s). */
export async function measureKinds(rootCount: number, trials: number, idle = true): Promise<KindsResult> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-access-kinds-')));
  const samples: Partial<Record<Kind, number[]>> = {};
  const skipped: Partial<Record<Kind, string>> = {};
  const add = (kind: Kind, ms: number) => (samples[kind] ??= []).push(ms);
  try {
    const roots = folders(base, rootCount, false);
    const parent = path.join(base, 'parent');
    const elsewhere = path.join(base, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const monitor = new AccessMonitor({ sweepIntervalMs: 0 });
    monitor.setRoots(roots);
    const watchesOneFolder = monitor.watcherCount;
    const allIds = roots.map((root) => root.id);
    const permissionsApply = process.getuid?.() !== 0;
    if (!permissionsApply) skipped['permissions changed'] = 'running as root, which reads every folder whatever its mode';

    for (let i = 0; i < trials; i++) {
      const root = roots[(i * 37) % roots.length] as MonitoredRoot;
      const dir = root.canonicalPath;
      add('deleted', await timed(monitor, [root.id], 'missing', () => fs.rmdirSync(dir)));
      add('restored', await timed(monitor, [root.id], 'ok', () => fs.mkdirSync(dir)));
      add('renamed', await timed(monitor, [root.id], 'missing', () => fs.renameSync(dir, `${dir}-renamed`)));
      await timed(monitor, [root.id], 'ok', () => fs.renameSync(`${dir}-renamed`, dir));
      if (permissionsApply) {
        add('permissions changed', await timed(monitor, [root.id], 'permission-denied', () => fs.chmodSync(dir, 0o000)));
        await timed(monitor, [root.id], 'ok', () => fs.chmodSync(dir, 0o755));
      }
      add('swapped for a symlink', await timed(monitor, [root.id], 'target-changed', () => {
        fs.rmdirSync(dir);
        fs.symlinkSync(elsewhere, dir);
      }));
      await timed(monitor, [root.id], 'ok', () => {
        fs.unlinkSync(dir);
        fs.mkdirSync(dir);
      });
      // Every one of the 1,000 roots under the renamed parent, not just the first, must be seen.
      add('parent renamed', await timed(monitor, allIds, 'missing', () => fs.renameSync(parent, `${parent}-moved`)));
      await timed(monitor, allIds, 'ok', () => fs.renameSync(`${parent}-moved`, parent));
    }
    monitor.stop();

    // Idle, nothing changing, over one whole cycle of the safety net as shipped (the cheap checks
    // and one full re-probe of every root): first this process without a monitor (the floor: Node
    // and tsx idling), then with one. One long sleep each, not a poll: waking up to look would cost
    // more than the monitor does.
    const idleCycle = idle ? await idleCycleCost(roots) : undefined;

    const spreadMonitor = new AccessMonitor({ sweepIntervalMs: 0 });
    spreadMonitor.setRoots(folders(path.join(base, 'spread'), rootCount, true));
    const watchesSpread = spreadMonitor.watcherCount;
    spreadMonitor.stop();

    return {
      uid: process.getuid?.(),
      rootCount,
      samples,
      skipped,
      watchesOneFolder,
      watchesSpread,
      sharedAncestors: base.split(path.sep).filter(Boolean).length + 1,
      ...(idleCycle ? { idle: idleCycle } : {}),
    };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

/** One whole cycle of the safety net, idle: the process without a monitor (the floor), then with one. */
async function idleCycleCost(roots: MonitoredRoot[]): Promise<NonNullable<KindsResult['idle']>> {
  const cycleMs = DEFAULT_SWEEP_MS * DEFAULT_FULL_SWEEP_EVERY + 250;
  const floorPercent = await cpuPercentOver(cycleMs);
  const idleMonitor = new AccessMonitor();
  idleMonitor.setRoots(roots);
  const started = idleMonitor.sweepCost;
  const processPercent = await cpuPercentOver(cycleMs);
  const cost = idleMonitor.sweepCost;
  idleMonitor.stop();
  if (cost.sweeps - started.sweeps < DEFAULT_FULL_SWEEP_EVERY) throw new Error(`only ${cost.sweeps} sweeps in a cycle: timers starved`);
  return {
    seconds: cycleMs / 1000,
    ownPercent: ((cost.cpuMs - started.cpuMs) / cycleMs) * 100,
    processPercent,
    floorPercent,
    sweepMs: DEFAULT_SWEEP_MS,
    fullSweepMs: DEFAULT_SWEEP_MS * DEFAULT_FULL_SWEEP_EVERY,
  };
}
