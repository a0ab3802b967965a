// Section 10, the comparison: the app (RootsHost, in this process) hosting the same servers on the
// same kind of registry. Its servers stamp their roots on stderr like the proxied ones; the app
// hands each stderr line to its activity log, which is where the bench reads them.
import { RootsHost } from '../../electron/host/roots-host.js';
import { benchDir } from './bench-env.js';
import { percentile, type Figure } from './figures.js';
import { loadAverage } from './proc-stats.js';
import type { ProxyBenchOptions } from './proxies.js';
import { buildFleetRegistry, cliGrant, fmt, GRANT_TIMEOUT_MS, START_TIMEOUT_MS, uriOf, type FleetServer, type Stamp } from './proxy-fleet.js';

class AppStamps {
  private readonly stamps = new Map<string, Stamp[]>();
  private readonly lines = new Map<string, string[]>();
  private readonly waiters = new Set<() => void>();

  constructor(host: RootsHost) {
    host.on('activity', ({ serverId, entry }) => {
      const lines = this.lines.get(serverId) ?? [];
      lines.push(`${entry.kind}: ${entry.message.slice(0, 160)}`);
      this.lines.set(serverId, lines.slice(-4));
      const match = entry.kind === 'stderr' ? /^roots-stamp (\d+) (.*)$/.exec(entry.message) : null;
      if (!match) return;
      const list = this.stamps.get(serverId) ?? [];
      list.push({ at: Number(match[1]), uris: JSON.parse(match[2] as string) as string[] });
      this.stamps.set(serverId, list);
      for (const waiter of this.waiters) waiter();
    });
  }

  /** The first stamp at or after `since` with exactly the server's folders, waiting for it. */
  has(server: FleetServer, since: number, what: string, timeoutMs: number): Promise<Stamp> {
    const wanted = server.folders.map(uriOf).sort().join('\n');
    const find = () => this.stamps.get(server.id)?.find((stamp) => stamp.at >= since && [...stamp.uris].sort().join('\n') === wanted);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`${server.name} (${what}): no matching roots stamp in ${timeoutMs} ms; last activity: ${(this.lines.get(server.id) ?? []).join(' | ')}`));
      }, timeoutMs);
      const check = () => {
        const found = find();
        if (!found) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** The app started on a registry like the proxies', its figures pushed as they are measured. */
export async function appHosting(roots: number, options: ProxyBenchOptions, figures: Figure[]): Promise<void> {
  const size = Math.max(...options.fleetSizes);
  const registry = await buildFleetRegistry(benchDir('app-config'), roots, size, { spareCount: options.grants });
  const tag = `12. app hosting ${size} servers, ${roots.toLocaleString('en')} roots`;
  const host = new RootsHost({ configDir: registry.configDir, stateThrottleMs: 50 });
  const stamps = new AppStamps(host);
  try {
    const t0 = Date.now();
    await host.start();
    const started = await Promise.all(registry.servers.map((server) => stamps.has(server, 0, 'start', START_TIMEOUT_MS)));
    const startMs = started.map((stamp) => stamp.at - t0);
    figures.push({ id: `app-${roots}-start`, label: `${tag}: app start -> each server has its folders, p50`, value: percentile(startMs, 50), unit: 'ms', note: `max ${fmt(Math.max(...startMs))}; ${loadAverage()}` });

    const before = process.cpuUsage();
    const w0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, options.idleWindowMs)); // a measuring window
    const used = process.cpuUsage(before);
    const idle = ((used.user + used.system) / 1000 / (performance.now() - w0)) * 100;
    figures.push({ id: `app-${roots}-idle`, label: `${tag}: idle CPU of the app (it watches every root)`, value: idle, unit: '%', note: `over ${options.idleWindowMs / 1000} s` });

    // The list_changed path, as for the proxies: the sandbox off (each server restarts once).
    const toggledAt = Date.now();
    await Promise.all(registry.servers.map((server) => host.commands.updateServer(server.id, { sandbox: false })));
    await Promise.all(registry.servers.map((server) => stamps.has(server, toggledAt, 'sandbox off', START_TIMEOUT_MS)));
    const latency: number[] = [];
    for (const [i, folder] of registry.spare.entries()) {
      const server = registry.servers[i % registry.servers.length] as FleetServer;
      const since = Date.now();
      const writtenAt = await cliGrant(registry.configDir, server.name, folder);
      server.folders.push(folder);
      latency.push((await stamps.has(server, since, 'grant', GRANT_TIMEOUT_MS)).at - writtenAt);
    }
    figures.push({
      id: `app-${roots}-grant`,
      label: `${tag}: CLI grant -> server has it (list_changed; sandbox off), p99 of ${latency.length}`,
      value: percentile(latency, 99),
      unit: 'ms',
      budget: { max: 150, text: '< 150 ms' },
      note: `p50 ${fmt(percentile(latency, 50))}; ${loadAverage()}`,
    });
  } finally {
    await host.stop();
  }
}
