// Section 5: registry load and one persisted edit with 100 and 10,000 roots.
import fs from 'node:fs';
import path from 'node:path';
import { RegistryStore } from '../../electron/host/registry/registry-store.js';
import { RegistryEditor } from '../../electron/host/registry/registry-commands.js';
import type { Registry } from '../../shared/domain.js';
import { emptyRegistry } from '../../shared/registry-schema.js';
import { benchDir } from './bench-env.js';
import { percentile, type Figure } from './figures.js';

function registryWith(rootCount: number): Registry {
  const now = new Date().toISOString();
  const roots = Array.from({ length: rootCount }, (_, i) => ({
    id: `root-${i}`,
    path: `/home/someone/projects/client-${i % 50}/repository-${i}`,
    canonicalPath: `/home/someone/projects/client-${i % 50}/repository-${i}`,
    name: `repository-${i}`,
    addedAt: now,
  }));
  const servers = Array.from({ length: 20 }, (_, i) => ({
    id: `server-${i}`,
    name: `server-${i}`,
    transport: { type: 'stdio' as const, command: 'node', args: ['server.js'], env: {} },
    enabled: false,
    sharing: true,
    sandbox: true,
    network: true,
    askForFolders: true,
    addedAt: now,
  }));
  const grants = Object.fromEntries(servers.map((server, i) => [server.id, Object.fromEntries(roots.filter((_, r) => r % 20 === i).map((root) => [root.id, 'read-write' as const]))]));
  return { ...emptyRegistry(), roots, servers, grants };
}

export async function registryIo(sizes: number[], repeats: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const size of sizes) {
    const dir = benchDir('registry');
    const seed = new RegistryStore(dir);
    seed.open();
    const release = await seed.lock();
    await seed.write(registryWith(size));
    release();
    const loads: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const start = performance.now();
      new RegistryStore(dir).open();
      loads.push(performance.now() - start);
    }
    const editor = await RegistryEditor.open(dir);
    const persists: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const start = performance.now();
      await editor.renameRoot('root-0', `renamed-${i}`);
      persists.push(performance.now() - start);
    }
    await editor.close();
    const bytes = fs.statSync(path.join(dir, 'config.json')).size;
    figures.push(
      {
        id: `load-${size}`,
        label: `5. registry load, ${size} roots (${(bytes / 1e6).toFixed(1)} MB), p50`,
        value: percentile(loads, 50),
        unit: 'ms',
        budget: size === 10_000 ? { max: 100, text: '< 100 ms (10,000 roots)' } : undefined,
      },
      {
        id: `persist-${size}`,
        label: `5. one edit persisted, ${size} roots, p50`,
        value: percentile(persists, 50),
        unit: 'ms',
        budget: size === 10_000 ? { max: 20, text: '< 20 ms (10,000 roots)' } : undefined,
      },
    );
  }
  return figures;
}
