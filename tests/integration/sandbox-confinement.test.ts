// The OS sandbox with real processes: a server that ignores roots and tries any path, and
// server-filesystem started with a broad folder argument, each confined by confineStdio and driven
// by the SDK client. They run wherever bubblewrap works (CI installs it).
import { PROJECT_ENTRIES } from '../../electron/host/sandbox/protected-paths.js';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { GrantedFolder } from '../../electron/host/sandbox/sandbox-types.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { STATIC_PROTECTION } from '../../electron/host/sandbox/self-check.js';
import { anyPathServer, closeConfined, startConfined } from '../support/confined-client.js';
import { FILESYSTEM_ENTRY, removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const support = await probeSandbox();
const rw = (p: string): GrantedFolder => ({ path: p, mode: 'read-write' });
const ro = (p: string): GrantedFolder => ({ path: p, mode: 'read-only' });

afterEach(async () => {
  await closeConfined();
  removeTempDirs();
});

/** A folder with a file in it, outside every grant unless a test grants it. */
function folderWith(name: string, content = 'secret'): { dir: string; file: string } {
  const dir = tempDir(`sbx-${name}-`);
  const file = path.join(dir, `${name}.txt`);
  fs.writeFileSync(file, content);
  return { dir, file };
}

const base = (roots: GrantedFolder[], network = false) => ({ serverId: 'test-server', roots, dataDir: tempDir('sbx-data-'), network, support });

describe.runIf(support.kind === 'bwrap')('a confined server (bubblewrap)', () => {
  it('reads and writes its read-write grant, and every path outside it fails at the OS level', async () => {
    const granted = folderWith('granted', 'hello');
    const outside = folderWith('outside');
    const server = await startConfined(anyPathServer(), base([rw(granted.dir)]));

    expect(await server.call('read', { path: granted.file })).toBe('hello');
    expect(await server.call('write', { path: path.join(granted.dir, 'new.txt'), content: 'made inside' })).toBe('written');
    expect(fs.readFileSync(path.join(granted.dir, 'new.txt'), 'utf8')).toBe('made inside');

    expect(await server.call('read', { path: outside.file })).toMatch(/^ERROR ENOENT/);
    expect(await server.call('list', { path: outside.dir })).toMatch(/^ERROR ENOENT/);
    expect(await server.call('write', { path: path.join(outside.dir, 'planted.txt'), content: 'x' })).toMatch(/^ERROR (ENOENT|EROFS|EACCES)/);
    expect(fs.existsSync(path.join(outside.dir, 'planted.txt'))).toBe(false);
    // The top of the tree is read-only: nothing can be created beside the mounts.
    expect(await server.call('write', { path: '/planted.txt', content: 'x' })).toMatch(/^ERROR (EROFS|EACCES)/);
    // /etc holds only the runtime's files: no shadow, no ssh host keys.
    expect(await server.call('read', { path: '/etc/shadow' })).toMatch(/^ERROR ENOENT/);
    expect(await server.call('list', { path: '/etc/ssh' })).toMatch(/^ERROR ENOENT/);
  });

  it('can read a read-only grant but not write, rename or delete in it', async () => {
    const granted = folderWith('readonly', 'look only');
    const server = await startConfined(anyPathServer(), base([ro(granted.dir)]));
    expect(await server.call('read', { path: granted.file })).toBe('look only');
    expect(await server.call('write', { path: granted.file, content: 'changed' })).toMatch(/^ERROR EROFS/);
    expect(await server.call('write', { path: path.join(granted.dir, 'new.txt'), content: 'x' })).toMatch(/^ERROR EROFS/);
    expect(await server.call('mkdir', { path: path.join(granted.dir, 'sub') })).toMatch(/^ERROR EROFS/);
    expect(fs.readFileSync(granted.file, 'utf8')).toBe('look only');
  });

  it('keeps a nested grant in its own mode: read-only inside read-write, and the other way round', async () => {
    const outer = tempDir('sbx-outer-');
    const inner = path.join(outer, 'inner');
    fs.mkdirSync(inner);
    const server = await startConfined(anyPathServer(), base([rw(outer), ro(inner)]));
    expect(await server.call('write', { path: path.join(outer, 'a.txt'), content: 'x' })).toBe('written');
    expect(await server.call('write', { path: path.join(inner, 'b.txt'), content: 'x' })).toMatch(/^ERROR EROFS/);
    await server.close();

    const other = await startConfined(anyPathServer(), base([ro(outer), rw(inner)]));
    expect(await other.call('write', { path: path.join(outer, 'c.txt'), content: 'x' })).toMatch(/^ERROR EROFS/);
    expect(await other.call('write', { path: path.join(inner, 'd.txt'), content: 'x' })).toBe('written');
  });

  it('does not show ~/.ssh, even with a granted folder under HOME', async () => {
    const fakeHome = tempDir('sbx-home-');
    fs.mkdirSync(path.join(fakeHome, '.ssh'));
    fs.writeFileSync(path.join(fakeHome, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
    const project = path.join(fakeHome, 'projects', 'a');
    fs.mkdirSync(project, { recursive: true });
    const server = await startConfined({ ...anyPathServer(), env: { HOME: fakeHome } }, base([rw(project)]));

    expect(await server.call('read', { path: path.join(fakeHome, '.ssh', 'id_ed25519') })).toMatch(/^ERROR ENOENT/);
    expect(await server.call('list', { path: fakeHome })).toBe('projects');
    expect(await server.call('stat', { path: project })).toBe('directory');
    // Its HOME is its private one, whatever the config said.
    const env = JSON.parse(await server.call('env')) as { HOME: string; TMPDIR: string };
    expect(env.HOME).not.toBe(fakeHome);
    expect(env.HOME).toMatch(/sandbox\/servers\/test-server\/home$/);
    // The real user's HOME is not there either.
    expect(await server.call('list', { path: os.homedir() })).toMatch(/^ERROR ENOENT/);
  });

  // TMPDIR lives in the capped /tmp tmpfs since the limits of issue #22 class 8 (a disk folder could grow without bound): private, not kept.
  it('keeps its private HOME between restarts, in the app data folder; its TMPDIR is private and fresh at each start', async () => {
    const options = base([]);
    const first = await startConfined(anyPathServer(), options);
    const env = JSON.parse(await first.call('env')) as { HOME: string; TMPDIR: string };
    expect(await first.call('write', { path: path.join(env.HOME, 'cache.txt'), content: 'kept' })).toBe('written');
    expect(await first.call('write', { path: path.join(env.TMPDIR, 'scratch.txt'), content: 'kept too' })).toBe('written');
    expect(env.HOME.startsWith(options.dataDir)).toBe(true);
    await first.close();

    const second = await startConfined(anyPathServer(), options);
    expect(await second.call('read', { path: path.join(env.HOME, 'cache.txt') })).toBe('kept');
    expect(await second.call('read', { path: path.join(env.TMPDIR, 'scratch.txt') })).toMatch(/^ERROR ENOENT/);
    expect(env.TMPDIR).toBe('/tmp/.private');
  });

  it('runs two servers confined differently at the same time', async () => {
    const a = folderWith('a', 'for A');
    const b = folderWith('b', 'for B');
    const serverA = await startConfined(anyPathServer(), { ...base([rw(a.dir)]), serverId: 'A' });
    const serverB = await startConfined(anyPathServer(), { ...base([ro(b.dir)]), serverId: 'B' });

    expect(await serverA.call('read', { path: a.file })).toBe('for A');
    expect(await serverA.call('read', { path: b.file })).toMatch(/^ERROR ENOENT/);
    expect(await serverB.call('read', { path: b.file })).toBe('for B');
    expect(await serverB.call('read', { path: a.file })).toMatch(/^ERROR ENOENT/);
    expect(await serverA.call('write', { path: a.file, content: 'A wrote' })).toBe('written');
    expect(await serverB.call('write', { path: b.file, content: 'B wrote' })).toMatch(/^ERROR EROFS/);
  });

  it('confines server-filesystem started with a broad folder argument to its grants', async () => {
    const broad = tempDir('sbx-broad-');
    const granted = path.join(broad, 'granted');
    const secret = path.join(broad, 'secret');
    fs.mkdirSync(granted);
    fs.mkdirSync(secret);
    fs.writeFileSync(path.join(granted, 'ok.txt'), 'shared');
    fs.writeFileSync(path.join(secret, 'key.txt'), 'not shared');
    // No roots capability: server-filesystem serves its argument, all of `broad`.
    const server = await startConfined(
      { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, broad], env: {} },
      base([rw(granted)]),
    );
    const listing = toolText(await server.client.callTool({ name: 'list_directory', arguments: { path: broad } }));
    expect(listing).toContain('granted');
    expect(listing).not.toContain('secret');
    const read = await server.client.callTool({ name: 'read_text_file', arguments: { path: path.join(secret, 'key.txt') } });
    expect(read.isError).toBe(true);
    expect(toolText(read)).not.toContain('not shared');
    expect(toolText(await server.client.callTool({ name: 'read_text_file', arguments: { path: path.join(granted, 'ok.txt') } }))).toBe('shared');
  });

  it("has no network with network off; with it on, this computer's loopback only where shared with the host (sandbox-network.test.ts: pasta's)", async () => {
    const listener = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as net.AddressInfo).port;
    try {
      const offline = await startConfined(anyPathServer(), base([], false));
      expect(await offline.call('connect', { port })).toMatch(/^ERROR (ECONNREFUSED|ENETUNREACH)/);
      const online = await startConfined(anyPathServer(), { ...base([], true), serverId: 'online' });
      // In a network of its own (pasta) the loopback is closed unless a port is opened for it; the host's shared reaches it.
      expect(await online.call('connect', { port })).toMatch(support.privateNetwork?.pasta ? /^ERROR ECONNREFUSED/ : /^connected$/);
    } finally {
      listener.close();
    }
  });

  it('hides the app data folder (the registry) even under a granted folder', async () => {
    const granted = tempDir('sbx-parent-');
    const dataDir = path.join(granted, 'app-data');
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'config.json'), '{"grants":{}}');
    const server = await startConfined(anyPathServer(), { ...base([rw(granted)]), dataDir });
    // The data folder's mount point, and the empty placeholders that hold missing protected names (protected-paths.ts): nothing else.
    const listed = (await server.call('list', { path: granted })).split('\n');
    expect(listed).toContain('app-data');
    const placeholders = new Set(PROJECT_ENTRIES.map((entry) => entry.split('/')[0]));
    expect(listed.filter((name) => name !== 'app-data' && !placeholders.has(name))).toEqual([]);
    expect(await server.call('read', { path: path.join(dataDir, 'config.json') })).toMatch(/^ERROR ENOENT/);
    expect(await server.call('write', { path: path.join(dataDir, 'config.json'), content: 'widened' })).toMatch(/^ERROR (EROFS|EACCES|ENOENT)/);
    expect(fs.readFileSync(path.join(dataDir, 'config.json'), 'utf8')).toBe('{"grants":{}}');
    // Its own private HOME below that folder still works.
    const env = JSON.parse(await server.call('env')) as { HOME: string };
    expect(await server.call('write', { path: path.join(env.HOME, 'x.txt'), content: 'mine' })).toBe('written');
  });

  it('passes its self-check, and the check fails for a process that can see outside', async () => {
    const granted = folderWith('checked');
    // An existing protected file in the read-write grant: the check tries a change of it (refused), and leaves it as it was.
    fs.writeFileSync(path.join(granted.dir, '.mcp.json'), '{"mine":true}\n', { mode: 0o640 });
    const before = fs.statSync(path.join(granted.dir, '.mcp.json'));
    const readOnly = folderWith('checked-ro');
    const options = base([rw(granted.dir), ro(readOnly.dir)]);
    const server = await startConfined(anyPathServer(), options);
    const check = await server.confined.selfCheck(server.pid);
    expect(check.verified, check.detail).toBe(true);
    const after = fs.statSync(path.join(granted.dir, '.mcp.json'));
    expect([fs.readFileSync(path.join(granted.dir, '.mcp.json'), 'utf8'), after.mode, after.mtimeMs]).toEqual(['{"mine":true}\n', before.mode, before.mtimeMs]);
    // Nothing of the check is left in either grant (with bind mounts, the placeholders of missing
    // protected names are there while it runs; the view makes none).
    if (support.view?.available) expect(fs.readdirSync(granted.dir).sort()).toEqual(['.mcp.json', path.basename(granted.file)].sort());
    expect(fs.readdirSync(readOnly.dir)).toEqual([path.basename(readOnly.file)]);
    // Each grant proved: through its file view where there is one, else as a mount.
    const grants = support.view?.available ? '2 grant\\(s\\) through its file view, each the folder that was checked \\(1 read-only: a new file refused; 1 read-write: writable, a protected name refused\\)' : '2 root\\(s\\)';
    expect(check.detail).toMatch(new RegExp(`2 sentinel\\(s\\) and \\d file\\(s\\) of HOME outside the grants not visible; ${grants}`));

    // The same check against a bwrap that binds the whole host: it must see through it.
    const leaky = await startConfined(
      { type: 'stdio', command: support.launcher as string, args: ['--unshare-all', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', ...[process.execPath, ...anyPathServer().args]], env: {} },
      { ...options, support: { ...support, kind: 'none', reasonCode: 'bwrap-missing', reason: 'test: spawn as given' } },
    );
    const leak = await server.confined.selfCheck(leaky.pid);
    expect(leak.verified).toBe(false);
    expect(leak.detail).toMatch(/visible inside|not mounted inside|mounted read-write/);
  });

  it('passes its self-check while its short-lived children come and go (as desktop-commander starts)', async () => {
    // A child that ends while it is read (its cgroup, its view, its limits) says nothing about the
    // sandbox; CI once stopped desktop-commander as "not in its cgroup" for that.
    const server = anyPathServer();
    const churning: StdioTransportConfig = {
      ...server,
      command: '/bin/sh',
      args: ['-c', 'while :; do /bin/true; done & exec "$0" "$@"', server.command, ...server.args],
    };
    // Through sh the fixture is no longer the command's program: its package (this repository) granted read-only instead.
    const running = await startConfined(churning, base([rw(folderWith('churn').dir), ro(path.resolve(import.meta.dirname, '../..'))]));
    for (let round = 0; round < 20; round++) {
      const check = await running.confined.selfCheck(running.pid);
      expect(check.verified, check.detail).toBe(true);
    }
  });

  it.runIf(support.view?.available === true)('proves the table it follows when a check is asked while a live change runs (its start check, a revoke)', async () => {
    // CI once stopped a server as "could not be verified": its start check still held the folder a
    // revoke had just taken out of its view, and found it gone (ENOENT, not refused as read-only).
    const first = folderWith('first-ro');
    const second = folderWith('second-ro');
    const granted = [ro(first.dir), ro(second.dir)];
    const server = await startConfined(anyPathServer(), base(granted));
    const live = server.confined.live;
    if (!live.available) throw new Error(`no live grants: ${live.reason}`);
    for (let round = 0; round < 10; round++) {
      // Asked in the same turn: the check, then a change that takes both folders away (and back).
      const [check, revoke] = await Promise.all([server.confined.selfCheck(server.pid), live.apply(server.pid, [])]);
      expect(check.verified, `round ${round}: ${check.detail}`).toBe(true);
      expect(revoke.kind, `round ${round}: ${JSON.stringify(revoke)}`).toBe('applied');
      const [again, regrant] = await Promise.all([server.confined.selfCheck(server.pid), live.apply(server.pid, granted)]);
      expect(again.verified, `round ${round}: ${again.detail}`).toBe(true);
      expect(regrant.kind, `round ${round}: ${JSON.stringify(regrant)}`).toBe('applied');
    }
    expect(await server.call('read', { path: first.file })).toBe('secret');
    // A granted folder deleted on disk before the app revokes it is not the sandbox failing: it still refuses what its mode refuses.
    fs.rmSync(second.dir, { recursive: true });
    const gone = await server.confined.selfCheck(server.pid);
    expect(gone.verified, gone.detail).toBe(true);
  });

  it('without a file view, binds its grants at start and says its protection is static, not live', async () => {
    const granted = folderWith('static', 'static');
    const server = await startConfined(anyPathServer(), { ...base([rw(granted.dir)]), support: { ...support, view: { available: false, reason: 'test: no FUSE' } } });
    expect(server.confined.live).toEqual({ available: false, reason: expect.stringContaining('bind mounts, fixed at its start') });
    const check = await server.confined.selfCheck(server.pid);
    expect(check.verified, check.detail).toBe(true);
    expect(check.detail).toContain(STATIC_PROTECTION);
    expect(check.detail).not.toMatch(/grants applied live|file view,/);
    expect(await server.call('read', { path: granted.file })).toBe('static');
  });

  it('checks itself without a sentinel in the folders every proxy watches (its data folder, the temp folder)', async () => {
    const options = base([rw(folderWith('quiet').dir)]);
    const server = await startConfined(anyPathServer(), options);
    const watched = [options.dataDir, os.tmpdir()];
    const seen: string[] = [];
    const watchers = watched.map((dir) => fs.watch(dir, (_event, name) => seen.push(path.join(dir, String(name)))));
    try {
      const check = await server.confined.selfCheck(server.pid);
      expect(check.verified, check.detail).toBe(true);
      expect(check.detail).toMatch(/2 sentinel\(s\)/);
      // A folder's events arrive in order: once a marker written after the check is seen in each,
      // whatever the check did there has been seen too.
      const markers = watched.map((dir) => path.join(dir, `.marker-${process.pid}-${Date.now()}`));
      for (const marker of markers) fs.writeFileSync(marker, '');
      try {
        await waitFor(() => markers.every((marker) => seen.includes(marker)), { what: 'the markers written after the check' });
      } finally {
        for (const marker of markers) fs.rmSync(marker, { force: true });
      }
      expect(seen.filter((entry) => path.basename(entry).startsWith('.mcp-roots-sentinel'))).toEqual([]);
    } finally {
      for (const watcher of watchers) watcher.close();
    }
  });

  it('names the folder when a server fails on a path outside its grants', async () => {
    const notGranted = tempDir('sbx-argument-');
    const granted = tempDir('sbx-granted-');
    // server-filesystem exits at start when none of its argument folders can be opened.
    const confinedConfig = { type: 'stdio' as const, command: process.execPath, args: [FILESYSTEM_ENTRY, notGranted], env: {} };
    await expect(startConfined(confinedConfig, base([rw(granted)]))).rejects.toThrow(/Cannot access directory/);
    const { confineStdio } = await import('../../electron/host/sandbox/confine-stdio.js');
    const confined = await confineStdio(confinedConfig, base([rw(granted)]));
    const blocked = confined.stderrBlocked([`Warning: Cannot access directory ${notGranted}, skipping`, 'Error: None of the specified directories are accessible']);
    expect(blocked).toMatchObject({ kind: 'outside-grants', folder: notGranted });
  });
});

describe.runIf(support.kind === 'bwrap' && process.getuid?.() === 0)('as an unprivileged user', () => {
  it('confines and self-checks the same way (setpriv to nobody)', async () => {
    const dataDir = tempDir('sbx-nobody-data-');
    const granted = tempDir('sbx-nobody-');
    fs.writeFileSync(path.join(granted, 'a.txt'), 'hi');
    fs.chmodSync(dataDir, 0o777);
    fs.chmodSync(granted, 0o755);
    const repoRoot = path.resolve(import.meta.dirname, '../..');
    const { stdout } = await promisify(execFile)(
      'setpriv',
      ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', process.execPath, '--import', 'tsx', 'tests/fixtures/confine-and-check.ts', dataDir, granted],
      { cwd: repoRoot, env: { ...process.env, HOME: dataDir } },
    );
    const facts = JSON.parse(stdout.trim().split('\n').at(-1) as string);
    expect(facts).toMatchObject({ uid: 65534, kind: 'bwrap', read: 'hi', check: { verified: true } });
    expect(facts.write).toMatch(/^ERROR EROFS/);
  }, 60_000);
});

describe('without bubblewrap', () => {
  it('runs the server advisory, with the reason, and it works', async () => {
    const noBwrap = await probeSandbox({ platform: 'linux', pathEnv: '/nonexistent-bin' });
    expect(noBwrap).toMatchObject({ kind: 'none', reasonCode: 'bwrap-missing' });
    const outside = folderWith('advisory', 'visible without a sandbox');
    const server = await startConfined(anyPathServer(), { ...base([]), support: noBwrap });
    expect(server.confined.enforcement).toMatchObject({ kind: 'none', reasonCode: 'bwrap-missing' });
    expect(server.confined.config).toEqual(anyPathServer());
    // Advisory means exactly that: nothing stops it.
    expect(await server.call('read', { path: outside.file })).toBe('visible without a sandbox');
    const check = await server.confined.selfCheck(server.pid);
    expect(check).toMatchObject({ verified: false });
    expect(check.detail).toMatch(/not confined: bubblewrap \(bwrap\) is not installed/);
  });
});
