// Section 13: grants applied live to a running confined server (a new table of its file view, view/).
// - grant -> visible and revoke -> hidden inside the same process, p50 and p99, beside today's
//   restart path (stop, re-plan, start, initialize, first successful read) in the same run;
// - through `mcp-roots proxy` (the built CLI): 50 grant changes in the registry while four hosts'
//   calls keep running; every call must come back (a restart would fail the ones in flight).
import { Client } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { listLiveProxies } from '../../electron/host/status/proxy-status.js';
import { RegistryEditor } from '../../electron/host/registry/registry-commands.js';
import { confineStdio, type ConfinedStdio } from '../../electron/host/sandbox/confine-stdio.js';
import { probeSandbox, type SandboxSupport } from '../../electron/host/sandbox/sandbox-probe.js';
import type { GrantedFolder } from '../../electron/host/sandbox/sandbox-types.js';
import { buildTransport, InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { CLI_BIN, ensureBuilt } from '../support/cli.js';
import { benchDir, makeFolders, repoRoot } from './bench-env.js';
import { percentile, type Figure } from './figures.js';

const server: StdioTransportConfig = { type: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'tests/fixtures/live-grant-server.mjs')], env: {} };

interface Running {
  client: Client;
  pid: number;
  list(folder: string): Promise<string>;
}

async function start(confined: ConfinedStdio): Promise<Running> {
  const built = buildTransport(confined.config, undefined, { childDescriptors: confined.openDescriptors });
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  await client.connect(built.transport);
  const list = async (folder: string) => {
    const result = await client.callTool({ name: 'list', arguments: { path: folder } });
    return (result.content as Array<{ text: string }>)[0]?.text ?? '';
  };
  return { client, pid: built.pid?.() as number, list };
}

/** Polls the running server until `done` holds; ms since `t0`. */
async function until(t0: number, probe: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await probe()) return performance.now() - t0;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The folder's listing shows its file (beside the placeholders a read-write folder gets for its missing protected names). */
const holds = (listing: string) => listing.split('\n').includes('here.txt');

async function visibleAndHidden(support: SandboxSupport, rounds: number, restartRounds: number): Promise<Figure[]> {
  const dataDir = benchDir('live-data');
  const [base, ...folders] = makeFolders(rounds + 3) as [string, ...string[]];
  for (const folder of folders) fs.writeFileSync(path.join(folder, 'here.txt'), 'x');
  const rootsWith = (...extra: string[]): GrantedFolder[] => [base, ...extra].map((p) => ({ path: p, mode: 'read-write' }));
  const confined = await confineStdio(server, { serverId: 'live-bench', roots: rootsWith(), dataDir, network: false, support });
  if (!confined.live.available) return [{ id: 'live-unavailable', label: `13. live grants not measured: ${confined.live.reason}`, value: 0, unit: 'count' }];
  const live = confined.live;
  const running = await start(confined);
  const visible: number[] = [];
  const hidden: number[] = [];
  const applied: number[] = [];
  try {
    for (let i = 0; i < rounds + 2; i++) {
      const folder = folders[i] as string;
      let t0 = performance.now();
      const granting = live.apply(running.pid, rootsWith(folder));
      const seen = await until(t0, async () => holds(await running.list(folder)));
      const grant = await granting;
      if (grant.kind !== 'applied') throw new Error(`grant not applied live: ${JSON.stringify(grant)}`);
      const appliedMs = performance.now() - t0;
      t0 = performance.now();
      const revoking = live.apply(running.pid, rootsWith());
      const gone = await until(t0, async () => !holds(await running.list(folder)));
      const revoke = await revoking;
      if (revoke.kind !== 'applied') throw new Error(`revoke not applied live: ${JSON.stringify(revoke)}`);
      if (i < 2) continue;
      visible.push(seen);
      hidden.push(gone);
      applied.push(appliedMs);
    }
  } finally {
    await running.client.close();
  }

  // Without the view (bind mounts), in the same run: stop, re-plan, start, initialize, the first successful read.
  const restart: number[] = [];
  let current = await start(confined);
  try {
    for (let i = 0; i < restartRounds + 1; i++) {
      const folder = folders[i] as string;
      const t0 = performance.now();
      await current.client.close();
      const next = await confineStdio(server, { serverId: 'live-bench', roots: rootsWith(folder), dataDir, network: false, support: { ...support, view: { available: false, reason: 'bench: bind mounts' } } });
      current = await start(next);
      const ms = await until(t0, async () => holds(await current.list(folder)));
      if (i > 0) restart.push(ms);
    }
  } finally {
    await current.client.close();
  }
  return [
    {
      id: 'live-grant-visible-p50',
      label: '13. live grant -> folder visible in the same process, p50',
      value: percentile(visible, 50),
      floor: percentile(restart, 50),
      unit: 'ms',
      note: `floor: today's restart path, measured in this run (p50; p99 ${percentile(restart, 99).toFixed(0)} ms, ${restart.length} rounds)`,
    },
    { id: 'live-grant-visible-p99', label: `13. ... p99 (${visible.length} grants)`, value: percentile(visible, 99), unit: 'ms', budget: { max: 100, text: '< 100 ms' } },
    { id: 'live-revoke-hidden-p50', label: '13. live revoke -> folder hidden from the same process, p50', value: percentile(hidden, 50), unit: 'ms' },
    { id: 'live-revoke-hidden-p99', label: `13. ... p99 (${hidden.length} revokes)`, value: percentile(hidden, 99), unit: 'ms', budget: { max: 100, text: '< 100 ms' } },
    { id: 'live-grant-applied-p50', label: '13. live grant applied and the sandbox verified again (self-check included), p50', value: percentile(applied, 50), unit: 'ms', note: `p99 ${percentile(applied, 99).toFixed(0)} ms` },
  ];
}

/** 50 grant changes in the registry while four hosts keep calling through their proxies' one server. */
async function callsDuringChanges(changes: number): Promise<Figure[]> {
  await ensureBuilt();
  const configDir = benchDir('live-proxy');
  const [kept, toggled] = makeFolders(2) as [string, string];
  fs.writeFileSync(path.join(kept, 'kept.txt'), 'kept');
  const edit = async <T>(change: (editor: RegistryEditor) => Promise<T>) => {
    const editor = await RegistryEditor.open(configDir);
    try {
      return await change(editor);
    } finally {
      await editor.close();
    }
  };
  const { serverId, toggledId } = await edit(async (editor) => {
    const { added } = await editor.addRoots([kept, toggled]);
    const record = await editor.addServer({ name: 'live', transport: server, enabled: true, sharing: true });
    await editor.setGrants([record.id], [added[0]?.id as string], true);
    return { serverId: record.id, toggledId: added[1]?.id as string };
  });
  const transport = new InPlaceStdioClientTransport({ command: process.execPath, args: [CLI_BIN, '--config-dir', configDir, 'proxy', 'live'], cwd: repoRoot, stderr: 'pipe' });
  const client = new Client({ name: 'bench-host', version: '1' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } });
  // Read, never left to fill: a proxy whose stderr pipe is full blocks on its next log line (its
  // "Applied live" lines name every protected path, and 50 changes filled the 64 KiB pipe).
  (transport.stderr as Readable | null)?.resume();
  await client.connect(transport);
  let stop = false;
  let calls = 0;
  const failures: string[] = [];
  const caller = async (slow: boolean) => {
    while (!stop) {
      try {
        const result = await client.callTool(slow ? { name: 'slow', arguments: { ms: 200 } } : { name: 'read', arguments: { path: path.join(kept, 'kept.txt') } }, { timeout: 30_000 });
        const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
        if (result.isError || text.startsWith('ERROR')) failures.push(text);
      } catch (error) {
        failures.push((error as Error).message);
      }
      calls++;
    }
  };
  const callers = [caller(true), caller(true), caller(false), caller(false)];
  const t0 = performance.now();
  for (let i = 0; i < changes; i++) {
    await edit((editor) => editor.setGrants([serverId], [toggledId], i % 2 === 0, 'read-only'));
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  stop = true;
  await Promise.all(callers);
  const ms = performance.now() - t0;
  const status = (await listLiveProxies(configDir)).find((entry) => entry.serverId === serverId);
  await client.close();
  return [
    {
      id: 'live-interrupted-calls',
      label: `13. calls interrupted during ${changes} grant changes through the proxy (4 callers, ${calls} calls in ${(ms / 1000).toFixed(1)} s)`,
      value: failures.length,
      unit: 'count',
      budget: { max: 0, text: '0' },
      note: `server restarts: ${status?.restartCount ?? '?'}; list_changed sent: ${status?.listChangedCount ?? '?'}${failures[0] ? `; first failure: ${failures[0]}` : ''}`,
    },
  ];
}

/** `restartRounds`: the restart path beside it (the floor of its p50, no budget), a few rounds of ~0.3 s each. */
export async function liveGrants(rounds: number, changes: number, restartRounds = Math.min(rounds, 10)): Promise<Figure[]> {
  const support = await probeSandbox();
  if (support.kind !== 'bwrap' || !support.view?.available) {
    const reason = support.kind !== 'bwrap' ? support.reason : support.view?.available === false ? support.view.reason : 'not probed';
    return [{ id: 'live-unavailable', label: `13. live grants not measured: ${reason}`, value: 0, unit: 'count' }];
  }
  return [...(await visibleAndHidden(support, rounds, restartRounds)), ...(await callsDuringChanges(changes))];
}
