// Section 7: start-up with 10 stdio servers (host ready, every server's first roots/list
// answered) and the host's resident memory idle with 50 servers and 10,000 roots.
import { RegistryEditor } from '../../electron/host/registry/registry-commands.js';
import { RootsHost } from '../../electron/host/roots-host.js';
import { addServers, benchDir, makeFolders, startBenchHost, waitUntil } from './bench-env.js';
import type { Figure } from './figures.js';

export async function startup(serverCount: number): Promise<Figure[]> {
  // Prepare a registry with the servers and a grant each, then start a fresh host on it.
  const configDir = benchDir('startup');
  const folders = makeFolders(3);
  const seed = await RegistryEditor.open(configDir);
  const { added } = await seed.addRoots(folders);
  for (let i = 0; i < serverCount; i++) {
    const server = await seed.addServer({ name: `s${i}`, transport: (await import('./bench-env.js')).timingServer, enabled: true, sharing: true });
    await seed.setGrants([server.id], added.map((root) => root.id), true);
  }
  await seed.close();

  const start = performance.now();
  const host = new RootsHost({ configDir });
  await host.start();
  const ready = performance.now() - start;
  try {
    await waitUntil(() => host.getState().servers.every((server) => server.status.rootsRequestCount > 0), 60_000);
    const allAnswered = performance.now() - start;
    return [
      { id: 'startup-ready', label: `7. host ready (registry loaded, monitor up), ${serverCount} servers`, value: ready, unit: 'ms' },
      { id: 'startup-first-answer', label: `7. ... every server's first roots/list answered`, value: allAnswered, unit: 'ms', note: 'includes spawning each server process' },
    ];
  } finally {
    await host.stop();
  }
}

/** `settleMs`: how long it idles before its memory is read (--quick: 0.5 s, not 1.5 s). */
export async function idleMemory(serverCount: number, rootCount: number, settleMs = 1500): Promise<Figure[]> {
  const baseline = process.memoryUsage().rss;
  const host = await startBenchHost();
  try {
    const { added } = await host.addRoots(makeFolders(rootCount));
    const servers = await addServers(host, serverCount);
    await host.setGrants(servers, added.slice(0, 100).map((root) => root.id), true);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    (globalThis as { gc?: () => void }).gc?.();
    const rss = process.memoryUsage().rss;
    return [
      {
        id: 'idle-rss',
        label: `7. host RSS idle, ${serverCount} servers + ${rootCount} roots (this process)`,
        value: rss / 1e6,
        unit: 'MB',
        note: `${((rss - baseline) / 1e6).toFixed(0)} MB above the bench process before the host started; servers are separate processes`,
      },
    ];
  } finally {
    await host.stop();
  }
}
