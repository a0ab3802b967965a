// Sections 1-3: edit -> list_changed on every affected transport; edit -> the server has re-fetched
// (vs a bare SDK client doing only that); a batch of 1,000 edits -> notifications per server.
import { Client } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import path from 'node:path';
import type { RootsHost } from '../../electron/host/roots-host.js';
import { acquireFileLockAsync } from '../../electron/host/registry/file-lock.js';
import { sameSignature, signatureOf } from '../../electron/host/registry/registry-file.js';
import { InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import { addServers, benchDir, listChangedWrites, makeFolders, rootsRequests, startBenchHost, timingServer, waitUntil } from './bench-env.js';
import { percentile, type Figure } from './figures.js';

/** Resolves once every given server has asked roots/list after `since`. */
export function refetched(host: RootsHost, serverIds: string[]): { done: Promise<number[]>; stop(): void } {
  const pending = new Set(serverIds);
  const times: number[] = [];
  let resolve!: (times: number[]) => void;
  const done = new Promise<number[]>((r) => (resolve = r));
  const listener = ({ serverId, entry }: { serverId: string; entry: { kind: string } }) => {
    if (entry.kind !== 'roots-request' || !pending.has(serverId)) return;
    pending.delete(serverId);
    times.push(performance.now());
    if (pending.size === 0) resolve(times);
  };
  host.on('activity', listener);
  return { done, stop: () => host.off('activity', listener) };
}

/**
 * The floor for section 1: N bare SDK clients, each with its own server started the SDK's default way
 * (normal priority), sending list_changed to all of them in one synchronous loop, with no host at
 * all. Each write wakes a server process; on a machine with fewer cores than servers those wake-ups
 * take the CPU from the sender. The host starts its servers below normal priority to avoid exactly
 * that (transport-factory.ts), so on a small machine it can beat this floor.
 */
async function startBareClients(count: number): Promise<{ broadcast(): Promise<number[]>; close(): Promise<void> }> {
  const clients: Client[] = [];
  let asked = 0;
  let allAsked: (() => void) | undefined;
  for (let i = 0; i < count; i++) {
    const client = new Client({ name: `bare-${i}`, version: '1' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler('roots/list', async () => {
      if (++asked === count) allAsked?.();
      return { roots: [] };
    });
    await client.connect(new InPlaceStdioClientTransport({ command: timingServer.command, args: timingServer.args }));
    clients.push(client);
  }
  return {
    async broadcast() {
      asked = 0;
      const done = new Promise<void>((resolve) => (allAsked = resolve));
      listChangedWrites.length = 0;
      const start = performance.now();
      for (const client of clients) void client.sendRootsListChanged();
      await done;
      return listChangedWrites.map((at) => at - start);
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}

export async function editToNotify(serverCounts: number[], edits: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const count of serverCounts) {
    const host = await startBenchHost();
    try {
      // A base root stays granted: going to an empty list restarts a server instead (see README).
      const { added } = await host.addRoots(makeFolders(2));
      const [baseId, rootId] = added.map((root) => root.id) as [string, string];
      const servers = await addServers(host, count);
      await host.setGrants(servers, [baseId], true);
      await waitUntil(() => servers.every((id) => rootsRequests(host, id) >= 2));
      const latencies: number[] = [];
      for (let i = 0; i < edits; i++) {
        const fetched = refetched(host, servers);
        listChangedWrites.length = 0;
        const start = performance.now();
        await host.setGrants(servers, [rootId], i % 2 === 0);
        await fetched.done;
        fetched.stop();
        latencies.push(...listChangedWrites.map((at) => at - start));
        if (listChangedWrites.length !== count) throw new Error(`expected ${count} list_changed, saw ${listChangedWrites.length}`);
      }
      await host.stop();
      // The floor runs after the host is gone, so the same number of server processes is alive.
      const bare = await startBareClients(count);
      const floor: number[] = [];
      try {
        for (let i = 0; i < edits; i++) floor.push(...(await bare.broadcast()));
      } finally {
        await bare.close();
      }
      figures.push(
        {
          id: `notify-p50-${count}`,
          label: `1. edit -> list_changed written, p50, ${count} server(s)`,
          value: percentile(latencies, 50),
          floor: percentile(floor, 50),
          unit: 'ms',
        },
        {
          id: `notify-p99-${count}`,
          label: `1. edit -> list_changed written, p99, ${count} server(s)`,
          value: percentile(latencies, 99),
          floor: percentile(floor, 99),
          unit: 'ms',
          budget: count === 50 ? { max: 5, text: '< 5 ms (50 servers)' } : undefined,
        },
      );
    } finally {
      await host.stop();
    }
  }
  return figures;
}

const ROUNDTRIP_WARMUP = 20;

/**
 * Edit -> re-fetch round trip through the host, and the same through a bare client (floor 1). Floor
 * 2 (since 2026-11-28, #30 item 17) is another bare client doing first the least the design asks
 * of any writer before it tells a server (DESIGN.md "one writer": each flush starts from the file
 * version read under the lock): it takes the registry's cross-process lock (the real file-lock.ts,
 * on a registry file of its own) and looks at the file (stat, as registry-store's check does), then
 * sends list_changed; it lets the lock go once the server has asked, as the host does after its
 * write. The budget is judged against floor 2; floor 1's ratio is printed beside it.
 */
export async function roundTrip(iterations: number): Promise<Figure[]> {
  const host = await startBenchHost();
  const hostSamples: number[] = [];
  const bareSamples: number[] = [];
  const lockedSamples: number[] = [];
  // Floor 2 has a client and a server of its own, as the host has: a server that has just answered
  // answers faster, and one shared by both floors would be warmer than the host's.
  const bare = new Client({ name: 'bare', version: '1' }, { capabilities: { roots: { listChanged: true } } });
  const locked = new Client({ name: 'bare-locked', version: '1' }, { capabilities: { roots: { listChanged: true } } });
  let bareAsked: (() => void) | undefined;
  const bareRoots: { uri: string; name: string }[] = [];
  try {
    const folders = makeFolders(2);
    const folder = folders[1] as string;
    const { added } = await host.addRoots(folders);
    const [baseId, rootId] = added.map((root) => root.id) as [string, string];
    const [serverId] = await addServers(host, 1);
    await host.setGrants([serverId as string], [baseId], true);
    await waitUntil(() => rootsRequests(host, serverId as string) >= 2);
    bareRoots.push({ uri: `file://${folders[0]}`, name: 'base' });
    for (const client of [bare, locked]) {
      client.setRequestHandler('roots/list', async () => {
        bareAsked?.();
        return { roots: bareRoots };
      });
      await client.connect(new InPlaceStdioClientTransport({ command: timingServer.command, args: timingServer.args }));
    }
    const registryFile = path.join(benchDir('floor2'), 'config.json');
    fs.writeFileSync(registryFile, fs.readFileSync(host.store.path));
    const lockPath = `${registryFile}.lock`;
    let seen = signatureOf(registryFile);
    // Its first lock makes the process's pid file for that lock (file-lock.ts): before the clock, as the host's was.
    (await acquireFileLockAsync(lockPath))();
    // Interleaved so all three see the same machine load, and in turn (host, floor 1, floor 2; then
    // floor 1, floor 2, host; ...), each with its own server: whichever runs just after another round
    // trip on the same processes finds them warm (floor 2 run always just after floor 1 on the same
    // server read 0.76x of floor 1, the same work plus the lock). Each starts on an idle
    // event loop: the bare client's clock stops inside its roots/list handler, before its answer is
    // serialized and written, and without a turn between them that tail ran inside the next
    // measurement (the host's own tail, its registry write, is awaited with setGrants).
    let hostEdits = 0;
    const toggleBareRoots = () => {
      if (bareRoots.length === 1) bareRoots.push({ uri: `file://${folder}`, name: 'x' });
      else bareRoots.length = 1;
    };
    const rounds: (() => Promise<void>)[] = [
      async () => {
        const fetched = refetched(host, [serverId as string]);
        const start = performance.now();
        await host.setGrants([serverId as string], [rootId], hostEdits++ % 2 === 0);
        const [at] = await fetched.done;
        fetched.stop();
        hostSamples.push((at as number) - start);
      },
      async () => {
        const asked = new Promise<void>((resolve) => (bareAsked = resolve));
        const start = performance.now();
        toggleBareRoots();
        await bare.sendRootsListChanged();
        await asked;
        bareSamples.push(performance.now() - start);
      },
      async () => {
        const asked = new Promise<void>((resolve) => (bareAsked = resolve));
        const start = performance.now();
        const release = await acquireFileLockAsync(lockPath);
        const now = signatureOf(registryFile);
        // Never changed here: a writer that found it changed would read it first.
        if (!sameSignature(now, seen)) seen = now;
        toggleBareRoots();
        await locked.sendRootsListChanged();
        await asked;
        lockedSamples.push(performance.now() - start);
        release();
      },
    ];
    // A warm-up first, not counted: the host's path is far more code than a bare client's, and over
    // its first rounds V8 was still compiling it (the p50 of 20 rounds from cold read 1.21-1.27 ms,
    // of 60 after those 0.84-0.85 ms, at load 4).
    for (let i = 0; i < ROUNDTRIP_WARMUP + iterations; i++) {
      if (i === ROUNDTRIP_WARMUP) for (const samples of [hostSamples, bareSamples, lockedSamples]) samples.length = 0;
      for (let k = 0; k < rounds.length; k++) {
        await settled();
        await (rounds[(i + k) % rounds.length] as () => Promise<void>)();
      }
    }
  } finally {
    await bare.close();
    await locked.close();
    await host.stop();
  }
  const hostP50 = percentile(hostSamples, 50);
  const bareP50 = percentile(bareSamples, 50);
  const lockedP50 = percentile(lockedSamples, 50);
  return [
    {
      id: 'roundtrip-p50',
      label: '2. edit -> server re-fetched roots/list, p50 (floor 1: bare SDK client)',
      value: hostP50,
      floor: bareP50,
      unit: 'ms',
    },
    {
      id: 'roundtrip-floor2-p50',
      label: '2. floor 2: bare SDK client that takes the registry lock and stats the file first, p50 (vs floor 1)',
      value: lockedP50,
      floor: bareP50,
      unit: 'ms',
    },
    {
      id: 'roundtrip-ratio',
      label: '2. host overhead on that round trip vs floor 1 (host p50 / bare p50; the budget\'s reference until 2026-11-28)',
      value: hostP50 / bareP50,
      unit: 'x',
    },
    {
      id: 'roundtrip-ratio-floor2',
      label: '2. host overhead on that round trip vs floor 2 (host p50 / floor 2 p50): the budget is judged on this one',
      value: hostP50 / lockedP50,
      unit: 'x',
      budget: { max: 1.25, text: '<= 1.25x floor 2' },
    },
    { id: 'roundtrip-p99', label: '2. edit -> server re-fetched roots/list, p99', value: percentile(hostSamples, 99), floor: percentile(bareSamples, 99), unit: 'ms' },
  ];
}

/** One turn of the event loop: what the previous step left queued (an answer being written) is done. */
function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export async function coalescing(serverCount: number, edits: number): Promise<Figure[]> {
  const host = await startBenchHost();
  try {
    const folders = makeFolders(50);
    const { added } = await host.addRoots(folders);
    const rootIds = added.map((root) => root.id);
    const servers = await addServers(host, serverCount);
    const bystander = (await addServers(host, 1))[0] as string;
    // Everyone starts with one root, so no edit below empties a list (that restarts a server).
    await host.setGrants([...servers, bystander], [rootIds[0] as string], true);
    await waitUntil(() => [...servers, bystander].every((id) => rootsRequests(host, id) >= 2));
    listChangedWrites.length = 0;
    const notified = new Map<string, number>();
    host.on('notified', (ids) => ids.forEach((id) => notified.set(id, (notified.get(id) ?? 0) + 1)));
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < edits; i++) {
      const rootId = rootIds[1 + (i % (rootIds.length - 1))] as string;
      batch.push(host.setGrants(servers, [rootId], i % 3 !== 0));
    }
    await Promise.all(batch);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const perServer = servers.map((id) => notified.get(id) ?? 0);
    return [
      {
        id: 'coalesce-max',
        label: `3. ${edits} edits in one batch -> list_changed per affected server (max of ${serverCount})`,
        value: Math.max(...perServer),
        unit: 'count',
        budget: { max: 1, text: 'exactly 1' },
        note: `min ${Math.min(...perServer)}, bystander ${notified.get(bystander) ?? 0}, transport writes ${listChangedWrites.length}`,
      },
      { id: 'coalesce-bystander', label: '3. ... list_changed to an unaffected server', value: notified.get(bystander) ?? 0, unit: 'count', budget: { max: 0, text: '0' } },
    ];
  } finally {
    await host.stop();
  }
}
