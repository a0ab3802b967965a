// The registry under concurrent writers, end to end: a running app that follows the file, several
// other processes editing it as fast as they can, and the app revoking grants in the middle of all
// that. At the end nothing may be lost and nothing revoked may come back, and three views must
// agree: the file on disk, the app's memory, and what every real server was last told.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRegistry } from '../../electron/host/registry/registry-store.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { addConnectedServer, callText, startHost, stopHosts } from '../support/host-harness.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const WRITERS = 4;
const EDITS_PER_WRITER = 20;
const SERVERS = 3;
const FOLDERS = 8;

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

const echoServer: StdioTransportConfig = {
  type: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures/roots-echo-server.mjs'), 'follows'],
  env: {},
};

function editLoop(configDir: string, label: string): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests/fixtures/registry-edit-loop.ts'), configDir, label, String(EDITS_PER_WRITER)], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve) => child.on('exit', resolve));
}

function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('one writer under concurrent edits', () => {
  it('loses no edit, resurrects no revoke, and disk = memory = what every server was last told', async () => {
    const host = await startHost({ registryPollMs: 200 });
    const folders = Array.from({ length: FOLDERS }, (_, i) => tempDir(`stress-${i}-`));
    const { added } = await host.addRoots(folders);
    const rootIds = added.map((root) => root.id);
    const serverIds: string[] = [];
    for (let i = 0; i < SERVERS; i++) serverIds.push(await addConnectedServer(host, `echo-${i}`, echoServer));
    await host.setGrants(serverIds, rootIds, true);

    // Revoke every (server, folder) pair but one folder per server, one at a time, while the others write.
    const pairs = shuffled(
      serverIds.flatMap((serverId, s) => rootIds.filter((_, r) => r !== s).map((rootId) => ({ serverId, rootId }))),
      Date.now() % 1000,
    );
    const writers = Array.from({ length: WRITERS }, (_, i) => editLoop(host.configDir, `writer${i}`));
    const revoked: typeof pairs = [];
    for (const pair of pairs) {
      const { changed } = await host.setGrants([pair.serverId], [pair.rootId], false);
      expect(changed).toBe(1);
      revoked.push(pair);
    }
    expect(await Promise.all(writers)).toEqual(Array(WRITERS).fill(0));

    // Every outside edit reaches the app, and the app stays as it was told.
    const expectedNames = Array.from({ length: WRITERS }, (_, w) => Array.from({ length: EDITS_PER_WRITER }, (_, i) => `writer${w}-${i}`)).flat();
    await waitFor(() => expectedNames.every((name) => host.registrySnapshot.servers.some((server) => server.name === name)), {
      what: 'every outside edit in the app',
      timeoutMs: 30_000,
    });
    await host.model.drained();
    const disk = parseRegistry(fs.readFileSync(host.store.path, 'utf8')).registry;
    const memory = host.registrySnapshot;

    // Zero lost edits.
    for (const registry of [disk, memory]) {
      const names = new Set(registry.servers.map((server) => server.name));
      expect(expectedNames.filter((name) => !names.has(name))).toEqual([]);
      expect(registry.roots).toHaveLength(FOLDERS);
    }
    // Zero resurrected grants.
    for (const { serverId, rootId } of revoked) {
      expect(disk.grants[serverId]?.[rootId], `disk: ${serverId} still has ${rootId}`).toBeUndefined();
      expect(memory.grants[serverId]?.[rootId], `memory: ${serverId} still has ${rootId}`).toBeUndefined();
    }
    // Disk = memory.
    expect(memory).toEqual(disk);
    // Each server ends with exactly its one remaining folder, and was last told exactly that.
    for (const [s, serverId] of serverIds.entries()) {
      expect(Object.keys(disk.grants[serverId] ?? {})).toEqual([rootIds[s]]);
      const expected = host.rootsFor(serverId).map((root) => root.uri);
      expect(expected).toEqual([added[s]?.uri]);
      await waitFor(
        async () => {
          const told = JSON.parse(await callText(host, serverId, 'last-roots')) as { uris: string[] | null };
          return JSON.stringify(told.uris) === JSON.stringify(expected);
        },
        { what: `echo-${s} to have been told its one folder`, timeoutMs: 30_000 },
      );
    }
  }, 120_000);
});
