// Section 6: how soon a deleted / restored root folder is noticed (and its server told) with 1,000
// roots monitored, and what monitoring costs while nothing happens.
import fs from 'node:fs';
import path from 'node:path';
import { addServers, listChangedWrites, makeFolders, rootsRequests, startBenchHost, waitUntil } from './bench-env.js';
import { percentile, type Figure } from './figures.js';

export async function accessDetection(rootCount: number, trials: number, idleSeconds: number): Promise<Figure[]> {
  const folders = makeFolders(rootCount);
  const host = await startBenchHost();
  try {
    const { added } = await host.addRoots(folders);
    const [serverId] = await addServers(host, 1);
    await host.setGrants([serverId as string], added.map((root) => root.id), true);
    await waitUntil(() => rootsRequests(host, serverId as string) >= 2);
    const stateOf = (id: string) => host.getState().roots.find((root) => root.id === id)?.access.state;

    const deleted: number[] = [];
    const notified: number[] = [];
    const restored: number[] = [];
    for (let i = 0; i < trials; i++) {
      const root = added[(i * 37) % added.length];
      if (!root) continue;
      listChangedWrites.length = 0;
      let start = performance.now();
      fs.rmSync(root.canonicalPath, { recursive: true });
      await waitUntil(() => stateOf(root.id) === 'missing');
      deleted.push(performance.now() - start);
      await waitUntil(() => listChangedWrites.length > 0);
      notified.push((listChangedWrites[0] as number) - start);
      await waitUntil(() => rootsRequests(host, serverId as string) > 0);
      start = performance.now();
      fs.mkdirSync(root.canonicalPath);
      await waitUntil(() => stateOf(root.id) === 'ok');
      restored.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // A parent renamed: inotify on the root itself says nothing, so only the sweep can see it.
    const target = added[1];
    let parentRename = Number.NaN;
    if (target) {
      const parent = path.dirname(target.canonicalPath);
      const moved = `${parent}-moved`;
      const start = performance.now();
      fs.renameSync(parent, moved);
      await waitUntil(() => stateOf(target.id) === 'missing');
      parentRename = performance.now() - start;
      fs.renameSync(moved, parent);
      await waitUntil(() => stateOf(target.id) === 'ok');
    }

    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = process.cpuUsage();
    const wallStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const used = process.cpuUsage(before);
    const cpuPercent = ((used.user + used.system) / 1000 / (performance.now() - wallStart)) * 100;

    return [
      { id: 'detect-delete-p99', label: `6. deleted folder noticed, p99 (${rootCount} roots, ${trials} trials)`, value: percentile(deleted, 99), unit: 'ms', budget: { max: 1000, text: '< 1 s' } },
      { id: 'detect-notify-p99', label: '6. ... and its server sent list_changed, p99', value: percentile(notified, 99), unit: 'ms', budget: { max: 1000, text: '< 1 s' } },
      { id: 'detect-restore-p99', label: '6. restored folder noticed, p99 (sweep)', value: percentile(restored, 99), unit: 'ms', budget: { max: 1000, text: '< 1 s' } },
      { id: 'detect-parent-rename', label: '6. parent folder renamed, noticed (sweep only)', value: parentRename, unit: 'ms', budget: { max: 1000, text: '< 1 s' } },
      { id: 'idle-cpu', label: `6. CPU while idle, ${rootCount} roots monitored (% of one core)`, value: cpuPercent, unit: '%', note: `${idleSeconds} s sampled` },
    ];
  } finally {
    await host.stop();
  }
}
