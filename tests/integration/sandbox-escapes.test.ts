// Escape attempts against a confined server, each one a RELIABILITY.md row: `..`, symlinks that
// point out of a grant, /proc, and hard links. The server under test ignores roots and tries
// whatever it is told; the OS must refuse.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { anyPathServer, closeConfined, startConfined } from '../support/confined-client.js';
import { removeTempDirs, tempDir } from '../support/index.js';

const support = await probeSandbox();

afterEach(async () => {
  await closeConfined();
  removeTempDirs();
});

/** A granted folder and, beside it, a secret the server is not granted. */
async function setup() {
  const parent = tempDir('sbx-escape-');
  const granted = path.join(parent, 'granted');
  const secretDir = path.join(parent, 'secret');
  fs.mkdirSync(granted);
  fs.mkdirSync(secretDir);
  const secret = path.join(secretDir, 'key.txt');
  fs.writeFileSync(secret, 'SECRET');
  const server = await startConfined(anyPathServer(), {
    serverId: 'escape',
    roots: [{ path: granted, mode: 'read-write' }],
    dataDir: tempDir('sbx-data-'),
    network: false,
    support,
  });
  return { parent, granted, secretDir, secret, server };
}

describe.runIf(support.kind === 'bwrap')('escape attempts from a confined server', () => {
  it('`..` out of a grant finds nothing: the folder above holds only the mount point', async () => {
    const { granted, server } = await setup();
    expect(await server.call('read', { path: `${granted}/../secret/key.txt` })).toMatch(/^ERROR ENOENT/);
    expect(await server.call('list', { path: `${granted}/..` })).toBe('granted');
    expect(await server.call('read', { path: `${granted}/../../../../../../etc/shadow` })).toMatch(/^ERROR ENOENT/);
  });

  it('a symlink in a grant that points out of it leads nowhere, whoever made it', async () => {
    const { granted, secretDir, secret, server } = await setup();
    // Made by someone outside (the user, another program) before the server runs.
    fs.symlinkSync(secretDir, path.join(granted, 'to-secret-dir'));
    fs.symlinkSync(secret, path.join(granted, 'to-secret-file'));
    expect(await server.call('read', { path: path.join(granted, 'to-secret-file') })).toMatch(/^ERROR ENOENT/);
    expect(await server.call('list', { path: path.join(granted, 'to-secret-dir') })).toMatch(/^ERROR ENOENT/);
    // Made by the server itself: resolved in its own view, so still nothing.
    expect(await server.call('symlink', { target: '/', path: path.join(granted, 'to-root') })).toBe('linked');
    expect(await server.call('read', { path: path.join(granted, 'to-root', secret.slice(1)) })).toMatch(/^ERROR ENOENT/);
  });

  it('/proc shows only the sandbox’s own processes, and no way into the host’s files', async () => {
    const { secret, server } = await setup();
    const pids = (await server.call('processes')).split(' ').map(Number);
    // bwrap's init and the server: a new pid namespace, not the host's hundreds of processes.
    expect(pids.length).toBeLessThanOrEqual(3);
    expect(pids).not.toContain(process.pid);
    expect(await server.call('read', { path: `/proc/1/root${secret}` })).toMatch(/^ERROR (ENOENT|EACCES)/);
    expect(await server.call('read', { path: `/proc/${process.pid}/root${secret}` })).toMatch(/^ERROR (ENOENT|EACCES)/);
    expect(await server.call('read', { path: `/proc/self/root${secret}` })).toMatch(/^ERROR ENOENT/);
    expect(await server.call('list', { path: `/proc/${process.pid}/cwd` })).toMatch(/^ERROR (ENOENT|EACCES)/);
  });

  it('hard links: one made outside into a grant exposes that file; the server can make none that reach out', async () => {
    const { parent, granted, secret, server } = await setup();
    // A hard link IS the file: made by someone outside, it shows the secret's content inside.
    fs.linkSync(secret, path.join(granted, 'hard-link'));
    expect(await server.call('read', { path: path.join(granted, 'hard-link') })).toBe('SECRET');
    // The server cannot name a file outside to link it in…
    expect(await server.call('hardlink', { from: secret, to: path.join(granted, 'stolen') })).toMatch(/^ERROR ENOENT/);
    // …nor link across two grants (each grant is its own mount: EXDEV), even on one file system.
    const second = path.join(parent, 'second');
    fs.mkdirSync(second);
    fs.writeFileSync(path.join(granted, 'mine.txt'), 'mine');
    const two = await startConfined(anyPathServer(), {
      serverId: 'escape-two',
      roots: [
        { path: granted, mode: 'read-write' },
        { path: second, mode: 'read-only' },
      ],
      dataDir: tempDir('sbx-data-'),
      network: false,
      support,
    });
    fs.writeFileSync(path.join(second, 'ro.txt'), 'read-only content');
    // Linking a read-only grant's file into a writable grant would make it writable: refused.
    expect(await two.call('hardlink', { from: path.join(second, 'ro.txt'), to: path.join(granted, 'ro-copy') })).toMatch(/^ERROR EXDEV/);
    expect(fs.existsSync(path.join(granted, 'ro-copy'))).toBe(false);
  });
});
