// Section 6: how soon each kind of accessibility change is noticed with 1,000 roots monitored
// (events only: the monitor alone, in its own process, as a user permissions apply to; see
// access-kinds.ts), what monitoring costs while nothing happens, how many inotify watches it holds,
// and, through the whole host and a real server, how soon a deleted or restored folder reaches the
// server as list_changed.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { KindsResult, Kind } from './access-kinds.js';
import { addServers, listChangedWrites, makeFolders, repoRoot, rootsRequests, startBenchHost, waitUntil } from './bench-env.js';
import { percentile, type Figure } from './figures.js';

const KINDS: Kind[] = ['deleted', 'restored', 'renamed', 'parent renamed', 'permissions changed', 'swapped for a symlink'];
const NOTICE_BUDGET = { max: 100, text: '< 100 ms' };

/** The monitor's own figures, measured in a child process (as nobody when this runs as root). */
async function monitorAlone(rootCount: number, trials: number, idle: boolean): Promise<KindsResult> {
  const node = [process.execPath, '--import', 'tsx', 'tests/bench/access-kinds-child.ts', String(rootCount), String(trials), ...(idle ? [] : ['--no-idle'])];
  const drop = process.getuid?.() === 0 && fs.existsSync('/usr/bin/setpriv') ? ['setpriv', '--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups'] : [];
  const [command, ...args] = [...drop, ...node] as [string, ...string[]];
  const { stdout } = await promisify(execFile)(command, args, { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024, timeout: 600_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as KindsResult;
}

function kindFigures(result: KindsResult, trials: number): Figure[] {
  const figures: Figure[] = [];
  for (const kind of KINDS) {
    const samples = result.samples[kind];
    if (!samples) {
      figures.push({ id: `notice-${slug(kind)}-p99`, label: `6. ${kind}: not measured`, value: Number.NaN, unit: 'ms', note: result.skipped[kind] });
      continue;
    }
    const what = kind === 'parent renamed' ? `${kind} (all ${result.rootCount} roots under it)` : kind;
    figures.push({ id: `notice-${slug(kind)}-p50`, label: `6. ${what}, noticed p50`, value: percentile(samples, 50), unit: 'ms' });
    figures.push({
      id: `notice-${slug(kind)}-p99`,
      label: `6. ${what}, noticed p99 (${result.rootCount} roots, ${trials} trials, events only)`,
      value: percentile(samples, 99),
      unit: 'ms',
      budget: NOTICE_BUDGET,
    });
  }
  const idle = result.idle;
  if (!idle) {
    figures.push({ id: 'monitor-idle-cpu', label: '6. monitor CPU while idle: not measured in --quick (one 30 s cycle of the safety net, twice; the full run measures it)', value: Number.NaN, unit: '%' });
  }
  const cycle = idle && `one ${idle.seconds.toFixed(1)} s cycle: checks every ${idle.sweepMs / 1000} s, every root re-probed every ${idle.fullSweepMs / 1000} s`;
  if (idle) figures.push({
    id: 'monitor-idle-cpu',
    label: `6. monitor CPU while idle, ${result.rootCount} roots: its own work (% of one core)`,
    value: idle.ownPercent,
    unit: '%',
    budget: { max: 1, text: '< 1 % (near 0)' },
    note: `${cycle}; measured around each sweep (uid ${result.uid})`,
  });
  if (idle) figures.push({
    id: 'monitor-idle-process-cpu',
    label: `6. ... the whole process running only the monitor, vs the same process without it`,
    value: idle.processPercent,
    floor: idle.floorPercent,
    unit: '%',
    note: `${cycle}; the floor is Node and tsx idling, measured just before in the same process`,
  });
  figures.push({
    id: 'watches-one-folder',
    label: `6. inotify watches, ${result.rootCount} roots in one folder (${(result.watchesOneFolder / result.rootCount).toFixed(3)} per root)`,
    value: result.watchesOneFolder,
    unit: 'count',
    budget: { max: result.rootCount / 100, text: `< 1 % of the roots (${result.rootCount / 100})` },
    note: `the folder and the ${result.sharedAncestors} directories from / down to the bench folder, shared by every root`,
  });
  figures.push({
    id: 'watches-spread',
    label: `6. inotify watches, ${result.rootCount} roots each in its own folder (${(result.watchesSpread / result.rootCount).toFixed(3)} per root)`,
    value: result.watchesSpread,
    unit: 'count',
    note: 'one per folder that holds a root, plus the directories above them (shared)',
  });
  return figures;
}

function slug(kind: Kind): string {
  return kind.replace(/ /g, '-');
}

/** Through the whole host: a deleted or restored folder -> list_changed written to its server. */
async function throughHost(rootCount: number, trials: number, idleSeconds: number): Promise<Figure[]> {
  const folders = makeFolders(rootCount);
  const host = await startBenchHost();
  try {
    const { added } = await host.addRoots(folders);
    const [serverId] = await addServers(host, 1);
    await host.setGrants([serverId as string], added.map((root) => root.id), true);
    await waitUntil(() => rootsRequests(host, serverId as string) >= 2);

    const deleted: number[] = [];
    const restored: number[] = [];
    for (let i = 0; i < trials; i++) {
      const root = added[(i * 37) % added.length];
      if (!root) continue;
      for (const [change, samples] of [
        [() => fs.rmSync(root.canonicalPath, { recursive: true }), deleted],
        [() => fs.mkdirSync(root.canonicalPath), restored],
      ] as const) {
        const asked = rootsRequests(host, serverId as string);
        listChangedWrites.length = 0;
        const start = performance.now();
        change();
        await waitUntil(() => listChangedWrites.length > 0);
        samples.push((listChangedWrites[0] as number) - start);
        // The server re-fetches; the next change starts from a quiet session.
        await waitUntil(() => rootsRequests(host, serverId as string) > asked);
      }
    }

    let cpuPercent = Number.NaN;
    if (idleSeconds > 0) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = process.cpuUsage();
      const wallStart = performance.now();
      await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
      const used = process.cpuUsage(before);
      cpuPercent = ((used.user + used.system) / 1000 / (performance.now() - wallStart)) * 100;
    }

    const notifyBudget = { max: 1000, text: '< 1 s' };
    return [
      { id: 'host-delete-notify-p99', label: `6. host: folder deleted -> list_changed written to its server, p99 (${rootCount} roots)`, value: percentile(deleted, 99), unit: 'ms', budget: notifyBudget, note: `p50 ${percentile(deleted, 50).toFixed(1)} ms` },
      { id: 'host-restore-notify-p99', label: '6. host: folder restored -> list_changed written, p99', value: percentile(restored, 99), unit: 'ms', budget: notifyBudget, note: `p50 ${percentile(restored, 50).toFixed(1)} ms` },
      { id: 'idle-cpu', label: `6. host process CPU while idle, ${rootCount} roots, 1 server (% of one core)`, value: cpuPercent, unit: '%', note: idleSeconds > 0 ? `${idleSeconds} s sampled` : 'not measured in --quick' },
    ];
  } finally {
    await host.stop();
  }
}

/** `idleSeconds`: the host's idle CPU window; 0 also leaves out the monitor's idle cycle (--quick). */
export async function accessDetection(rootCount: number, trials: number, idleSeconds: number): Promise<Figure[]> {
  const alone = await monitorAlone(rootCount, trials, idleSeconds > 0);
  return [...kindFigures(alone, trials), ...(await throughHost(rootCount, trials, idleSeconds))];
}
