// The registry survives processes killed mid-write and concurrent writers in other processes.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aesCodec } from '../../../electron/host/registry/keyring-codec.js';
import { CONFIG_FILE, RegistryStore, parseRegistry } from '../../../electron/host/registry/registry-store.js';
import { removeTempDirs, tempDir, waitFor } from '../../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const loop = path.join(repoRoot, 'tests/fixtures/registry-edit-loop.ts');
const secretLoop = path.join(repoRoot, 'tests/fixtures/secret-edit-loop.ts');

afterEach(removeTempDirs);

function editLoop(configDir: string, label: string, count: number) {
  return spawn(process.execPath, ['--import', 'tsx', loop, configDir, label, String(count)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function countServers(configDir: string): number {
  try {
    return parseRegistry(fs.readFileSync(path.join(configDir, CONFIG_FILE), 'utf8')).registry.servers.length;
  } catch {
    return 0;
  }
}

function finished(child: ReturnType<typeof editLoop>): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('store faults', () => {
  it('kill -9 in a loop during edits never leaves a broken file', async () => {
    const configDir = tempDir('kill9-');
    let lastCount = 0;
    for (let round = 0; round < 6; round++) {
      const child = editLoop(configDir, `round${round}`, 0);
      // Let it get going (tsx start-up) until its edits land, then kill it at a varying moment.
      await waitFor(() => countServers(configDir) > lastCount, { what: 'edits landing', timeoutMs: 60_000, intervalMs: 5 });
      await new Promise((resolve) => setTimeout(resolve, (round * 37) % 50));
      child.kill('SIGKILL');
      await finished(child);
      const raw = fs.readFileSync(path.join(configDir, CONFIG_FILE), 'utf8');
      const { registry } = parseRegistry(raw); // throws if torn
      expect(registry.servers.length).toBeGreaterThanOrEqual(lastCount);
      lastCount = registry.servers.length;
    }
    expect(lastCount).toBeGreaterThan(0);
    // No stale lock keeps the next writer out.
    const store = new RegistryStore(configDir);
    expect(store.open().notices).toEqual([]);
    (await store.lock())();
    // Nor a temp file or a lock pid file of a killed writer (a temp file would hold a whole second
    // copy of the registry); this process's own pid file lives as long as it does (file-lock.ts).
    const own = `.lock.${process.pid}.`;
    expect(fs.readdirSync(configDir).filter((name) => name.endsWith('.tmp') || (/\.lock\./.test(name) && !name.includes(own)))).toEqual([]);
    // Each round starts tsx afresh: on a loaded 2-core machine that alone can take 20 s.
  }, 400_000);

  it('kill -9 (6 times) during edits with sealed secrets: no file in the folder ever holds one in clear; leftovers go at the next open', async () => {
    const configDir = tempDir('kill9-secrets-');
    const secret = 'kill9-clear-secret-0123456789';
    const key = randomBytes(32);
    let leftovers = 0;
    const ROUNDS = 6;
    for (let round = 0; round < ROUNDS; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', secretLoop, configDir, key.toString('hex'), secret, `round${round}`], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const before = countServers(configDir);
      // Generous: a loaded 2-core machine takes tens of seconds to start tsx.
      await waitFor(() => countServers(configDir) > before, { what: 'edits landing', timeoutMs: 60_000, intervalMs: 5 });
      await new Promise((resolve) => setTimeout(resolve, (round * 37) % 50));
      child.kill('SIGKILL');
      await finished(child);
      const names = fs.readdirSync(configDir);
      leftovers += names.filter((name) => name.endsWith('.tmp') || name.includes('.tmp-')).length;
      for (const name of names) {
        const file = path.join(configDir, name);
        if (fs.statSync(file).isFile()) expect(fs.readFileSync(file, 'utf8'), name).not.toContain(secret);
      }
    }
    // The next open removes what the killed writers left.
    new RegistryStore(configDir, aesCodec(key)).open();
    expect(fs.readdirSync(configDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    console.info(`kill -9 with secrets: ${leftovers} temp file(s) seen left behind over ${ROUNDS} kills, none holding a secret in clear`);
  }, 420_000);

  it('several processes editing at once lose no update', async () => {
    const configDir = tempDir('concurrent-');
    const writers = ['a', 'b', 'c', 'd'].map((label) => editLoop(configDir, label, 15));
    const codes = await Promise.all(writers.map(finished));
    expect(codes).toEqual([0, 0, 0, 0]);
    const { registry } = parseRegistry(fs.readFileSync(path.join(configDir, CONFIG_FILE), 'utf8'));
    const names = registry.servers.map((server) => server.name).sort();
    expect(names).toHaveLength(60);
    expect(new Set(names).size).toBe(60);
  }, 60_000);
});

describe('a write that fails', () => {
  it('a removed registry folder is recreated with everything in it', async () => {
    const { startHost, stopHosts } = await import('../../support/host-harness.js');
    try {
      const host = await startHost({ runServers: false });
      const first = tempDir('kept-');
      await host.addRoots([first]);
      fs.rmSync(host.store.configDir, { recursive: true, force: true });
      const second = tempDir('added-');
      await host.addRoots([second]);
      const { registry } = parseRegistry(fs.readFileSync(host.store.path, 'utf8'));
      expect(registry.roots.map((root) => root.canonicalPath)).toEqual([first, second]);
    } finally {
      await stopHosts();
    }
  });

  it('an edit that cannot be saved is rejected with store-failed and undone in memory', async () => {
    const { startHost, stopHosts } = await import('../../support/host-harness.js');
    try {
      const host = await startHost({ runServers: false });
      const folder = tempDir('kept-');
      await host.addRoots([folder]);
      // Something else now occupies the file's name: the final rename cannot replace it.
      fs.rmSync(host.store.path);
      fs.mkdirSync(path.join(host.store.path, 'blocker'), { recursive: true });
      await expect(host.addRoots([tempDir('lost-')])).rejects.toMatchObject({ code: 'store-failed' });
      expect(host.getState().roots.map((root) => root.canonicalPath)).toEqual([folder]);
    } finally {
      await stopHosts();
    }
  });
});
