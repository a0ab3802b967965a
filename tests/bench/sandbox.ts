// Section 9: what the OS sandbox costs, each figure beside the same thing done without it in this
// run: spawn + initialize (confineStdio included), resident memory per server (bwrap's own
// processes counted), and a grant change on an enforced server until the server serves the new
// folder (stop, re-plan, start, initialize, first successful read there).
import { Client } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { confineStdio, type ConfinedStdio } from '../../electron/host/sandbox/confine-stdio.js';
import { probeSandbox, type SandboxSupport } from '../../electron/host/sandbox/sandbox-probe.js';
import type { GrantedFolder } from '../../electron/host/sandbox/sandbox-types.js';
import { confinedProcesses } from '../../electron/host/sandbox/self-check.js';
import { buildTransport } from '../../electron/host/launch/transport-factory.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { benchDir, makeFolders, repoRoot, timingServer } from './bench-env.js';
import { percentile, type Figure } from './figures.js';

// Its real path: in a worktree whose node_modules is a symlink, the sandbox binds the folder it leads to.
const FILESYSTEM_ENTRY = fs.realpathSync(path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'));
const filesystemServer: StdioTransportConfig = { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY], env: {} };

interface Running {
  client: Client;
  pid: number;
}

/** Starts a plain config, or a confined one with the descriptors its bwrap binds from. */
async function start(config: StdioTransportConfig | ConfinedStdio, roots: string[] = []): Promise<Running> {
  const built = 'openDescriptors' in config ? buildTransport(config.config, undefined, { childDescriptors: config.openDescriptors }) : buildTransport(config);
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: { roots: {} } });
  const answer = roots.map((folder) => ({ uri: pathToFileURL(folder).href }));
  client.setRequestHandler('roots/list', async () => ({ roots: answer }));
  await client.connect(built.transport);
  return { client, pid: built.pid?.() as number };
}

function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** The spawned process and every descendant (bwrap, its init, the server). */
function treeRssKiB(pid: number): number {
  const pids = new Set([pid, ...confinedProcesses(pid)]);
  return [...pids].reduce((sum, each) => sum + rssKiB(each), 0);
}

/** Stops a server and waits until its process (bwrap's, when confined) is gone, so it cannot slow the next start. */
async function stop(server: Running): Promise<void> {
  await server.client.close();
  while (fs.existsSync(`/proc/${server.pid}`) && !/^State:\s+Z/m.test(readStatus(server.pid))) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function readStatus(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return 'State: Z';
  }
}

/**
 * A network-on server's spawn + initialize through pasta (a network namespace of its own, configured
 * before bwrap is released) against the same with the host's namespace shared (Unix sockets refused),
 * in interleaved pairs. Absent where pasta does not work here (the probe says why).
 */
async function privateNetworkCost(support: SandboxSupport, rounds: number, warmup: number): Promise<Figure[]> {
  if (!support.privateNetwork?.pasta) return [{ id: 'sandbox-pasta-unavailable', label: `9. network through pasta not measured: ${support.privateNetwork?.reason ?? 'not probed'}`, value: 0, unit: 'count' }];
  const dataDir = benchDir('sandbox-pasta-data');
  const shared: SandboxSupport = { ...support, privateNetwork: undefined };
  const once = async (withPasta: boolean) => {
    const t0 = performance.now();
    const sandboxed = await confineStdio(timingServer, { serverId: 'bench-net', roots: [], dataDir, network: true, support: withPasta ? support : shared });
    const server = await start(sandboxed);
    const ms = performance.now() - t0;
    await stop(server);
    return ms;
  };
  const pasta: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < rounds + warmup; i++) {
    const [a, b] = i % 2 === 0 ? [await once(true), await once(false)] : [await once(false), await once(true)].reverse();
    if (i < warmup) continue;
    pasta.push(a as number);
    plain.push(b as number);
  }
  const ratios = pasta.map((ms, i) => ms / (plain[i] as number));
  return [
    { id: 'sandbox-pasta-spawn-p50', label: '9. spawn + initialize, network on through pasta, p50', value: percentile(pasta, 50), floor: percentile(plain, 50), unit: 'ms', note: 'floor: network on, the host namespace shared' },
    { id: 'sandbox-pasta-ratio', label: `9. ... pasta / shared, median of ${rounds} interleaved pairs`, value: percentile(ratios, 50), unit: 'x', note: `pair ratios p25 ${percentile(ratios, 25).toFixed(2)}x, p75 ${percentile(ratios, 75).toFixed(2)}x` },
  ];
}

async function spawnAndInitialize(support: SandboxSupport, rounds: number, warmup: number, variant = ''): Promise<Figure[]> {
  const dataDir = benchDir('sandbox-data');
  const [root] = makeFolders(1) as [string];
  const roots: GrantedFolder[] = [{ path: root, mode: 'read-write' }];
  const plain: number[] = [];
  const confined: number[] = [];
  const prepare: number[] = [];
  const plainStart = async () => {
    const t0 = performance.now();
    const server = await start(timingServer);
    const ms = performance.now() - t0;
    await stop(server);
    return ms;
  };
  const confinedStart = async () => {
    const t0 = performance.now();
    const sandboxed = await confineStdio(timingServer, { serverId: 'bench', roots, dataDir, network: false, support });
    const prepared = performance.now() - t0;
    const server = await start(sandboxed);
    const ms = performance.now() - t0;
    await stop(server);
    return { ms, prepared };
  };
  for (let i = 0; i < rounds + warmup; i++) {
    // Pairs in turn, A B then B A, so the machine's drifting load falls on both alike; the first
    // pairs (two in the full run) warm up the disk cache and are dropped.
    let plainMs: number;
    let sandboxed: { ms: number; prepared: number };
    if (i % 2 === 0) {
      plainMs = await plainStart();
      sandboxed = await confinedStart();
    } else {
      sandboxed = await confinedStart();
      plainMs = await plainStart();
    }
    if (i < warmup) continue;
    plain.push(plainMs);
    confined.push(sandboxed.ms);
    prepare.push(sandboxed.prepared);
  }
  const pairRatios = confined.map((ms, i) => ms / (plain[i] as number));
  return [
    { id: `sandbox-spawn-p50${variant ? `-${variant.replace(/\s+/g, '-')}` : ''}`, label: `9. spawn + initialize, confined${variant ? ` ${variant}` : ''} (confineStdio included), p50`, value: percentile(confined, 50), floor: percentile(plain, 50), unit: 'ms' },
    {
      id: `sandbox-spawn-ratio${variant ? `-${variant.replace(/\s+/g, '-')}` : ''}`,
      label: `9. ... confined${variant ? ` ${variant}` : ''} / plain, median of ${rounds} interleaved pairs`,
      value: percentile(pairRatios, 50),
      unit: 'x',
      budget: { max: 1.15, text: '<= 1.15x' },
      note: `pair ratios p25 ${percentile(pairRatios, 25).toFixed(2)}x, p75 ${percentile(pairRatios, 75).toFixed(2)}x`,
    },
    { id: `sandbox-prepare-p50${variant ? `-${variant.replace(/\s+/g, '-')}` : ''}`, label: '9. ... of which confineStdio (locate program, plan), p50', value: percentile(prepare, 50), unit: 'ms' },
  ];
}

async function memory(support: SandboxSupport, count: number, settleMs: number): Promise<Figure[]> {
  const dataDir = benchDir('sandbox-data');
  const folders = makeFolders(count);
  const plain: Running[] = [];
  const confined: Running[] = [];
  try {
    for (let i = 0; i < count; i++) {
      plain.push(await start(timingServer));
      const sandboxed = await confineStdio(timingServer, { serverId: `mem-${i}`, roots: [{ path: folders[i] as string, mode: 'read-write' }], dataDir, network: false, support });
      confined.push(await start(sandboxed));
    }
    // Let start-up garbage settle the same way for both.
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const plainKiB = plain.reduce((sum, server) => sum + treeRssKiB(server.pid), 0) / count;
    const confinedKiB = confined.reduce((sum, server) => sum + treeRssKiB(server.pid), 0) / count;
    const bwrapKiB = confined.reduce((sum, server) => sum + treeRssKiB(server.pid) - rssKiB(confinedProcesses(server.pid).at(-1) as number), 0) / count;
    return [
      { id: 'sandbox-rss', label: `9. RSS per server, confined (bwrap + its init + server), mean of ${count}`, value: confinedKiB / 1024, floor: plainKiB / 1024, unit: 'MB' },
      { id: 'sandbox-rss-extra', label: '9. ... above plain', value: (confinedKiB - plainKiB) / 1024, unit: 'MB', budget: { max: 5, text: '<= +5 MiB' }, note: `bwrap's two processes alone: ${(bwrapKiB / 1024).toFixed(2)} MiB (RSS counts shared pages; MB here are MiB)` },
    ];
  } finally {
    await Promise.all([...plain, ...confined].map((server) => server.client.close()));
  }
}

/** Grant a new folder to an enforced server-filesystem: stop, re-plan, start, and wait until it lists the new folder. */
async function grantChange(support: SandboxSupport, rounds: number, warmup: number): Promise<Figure[]> {
  const dataDir = benchDir('sandbox-data');
  const folders = makeFolders(rounds + warmup + 1);
  const sandboxed: number[] = [];
  const plain: number[] = [];
  const servesNewFolder = async (server: Running, folder: string) => {
    for (;;) {
      const result = await server.client.callTool({ name: 'list_directory', arguments: { path: folder } });
      if (!result.isError) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  let granted: string[] = [folders[0] as string];
  let confinedServer = await start(await confineStdio(filesystemServer, { serverId: 'grant', roots: granted.map((p) => ({ path: p, mode: 'read-write' })), dataDir, network: false, support }), granted);
  let plainServer = await start(filesystemServer, granted);
  try {
    for (let i = 1; i < rounds + warmup + 1; i++) {
      granted = [...granted, folders[i] as string];
      const folder = folders[i] as string;
      const t0 = performance.now();
      await stop(confinedServer);
      const config = await confineStdio(filesystemServer, { serverId: 'grant', roots: granted.map((p) => ({ path: p, mode: 'read-write' })), dataDir, network: false, support });
      confinedServer = await start(config, granted);
      await servesNewFolder(confinedServer, folder);
      const confinedMs = performance.now() - t0;

      const t1 = performance.now();
      await stop(plainServer);
      plainServer = await start(filesystemServer, granted);
      await servesNewFolder(plainServer, folder);
      const plainMs = performance.now() - t1;
      if (i <= warmup) continue;
      sandboxed.push(confinedMs);
      plain.push(plainMs);
    }
  } finally {
    await confinedServer.client.close();
    await plainServer.client.close();
  }
  return [
    {
      id: 'sandbox-grant-change-p50',
      label: '9. grant change on an enforced server-filesystem -> new folder served (restart), p50',
      value: percentile(sandboxed, 50),
      floor: percentile(plain, 50),
      unit: 'ms',
      budget: { max: 400, text: '< 400 ms' },
      note: `floor: the same restart without the sandbox; p90 ${percentile(sandboxed, 90).toFixed(0)} ms (plain ${percentile(plain, 90).toFixed(0)} ms)`,
    },
  ];
}

/**
 * `quick`: one warm-up pair or restart where the full run drops two, none before the bind mounts'
 * pairs (the file view's just warmed the same disk cache), one measured grant change (two restarts
 * of server-filesystem, ~0.7 s a round), the network through pasta (no budget) left out, and 0.5 s
 * for the servers to settle before their memory is read (1.5 s in full).
 */
export async function sandboxCost(rounds: number, memoryCount: number, quick = false): Promise<Figure[]> {
  const warmup = quick ? 1 : 2;
  const t0 = performance.now();
  const support = await probeSandbox();
  const probeMs = performance.now() - t0;
  if (support.kind !== 'bwrap') {
    return [{ id: 'sandbox-unavailable', label: `9. sandbox not measured: ${support.reason}`, value: 0, unit: 'count' }];
  }
  return [
    { id: 'sandbox-probe', label: '9. probe (one bwrap trial run, once per process)', value: probeMs, unit: 'ms' },
    // With the file view where it works, and bind mounts alone, in the same run.
    ...(await spawnAndInitialize(support, rounds, warmup, support.view?.available ? 'with the file view' : '')),
    ...(support.view?.available ? await spawnAndInitialize({ ...support, view: { available: false, reason: 'bench' } }, rounds, quick ? 0 : warmup, 'bind mounts') : []),
    ...(quick
      ? [{ id: 'sandbox-pasta-ratio', label: '9. network on through pasta: not measured in --quick (no budget; the full run measures it)', value: Number.NaN, unit: 'x' as const }]
      : await privateNetworkCost(support, rounds, warmup)),
    ...(await memory(support, memoryCount, quick ? 500 : 1500)),
    ...(await grantChange(support, quick ? 1 : rounds, warmup)),
  ];
}
