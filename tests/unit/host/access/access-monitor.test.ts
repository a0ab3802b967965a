// Every kind of accessibility change, seen by the watches alone: each monitor here runs with the
// sweep switched off (sweepIntervalMs: 0), so nothing but an event can have noticed the change.
// How fast: the benchmark (section 6).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { AccessMonitor, type MonitoredRoot } from '../../../../electron/host/access/access-monitor.js';
import { removeTempDirs, tempDir, waitFor } from '../../../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const monitors: AccessMonitor[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const monitor of monitors.splice(0)) monitor.stop();
  for (const child of children.splice(0)) child.kill();
  removeTempDirs();
});

function monitor(sweepIntervalMs = 0): AccessMonitor {
  const created = new AccessMonitor({ sweepIntervalMs });
  monitors.push(created);
  return created;
}

/** A folder `dir` at base/parent/child, monitored by a monitor without a sweep. */
function watched(): { base: string; parent: string; dir: string; m: AccessMonitor } {
  const base = tempDir();
  const parent = path.join(base, 'parent');
  const dir = path.join(parent, 'child');
  fs.mkdirSync(dir, { recursive: true });
  const m = monitor();
  m.setRoots([{ id: 'r', canonicalPath: dir }]);
  expect(m.get('r').state).toBe('ok');
  return { base, parent, dir, m };
}

async function becomes(m: AccessMonitor, state: string, what: string): Promise<void> {
  await waitFor(() => m.get('r').state === state, { what: `${what}: ${state}`, timeoutMs: 30_000 });
}

/** Directories from the top of the file system down to (not including) `dir`. */
function ancestorsOf(dir: string): string[] {
  const out: string[] = [];
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    out.unshift(at);
    if (path.dirname(at) === at) return out;
  }
}

describe('AccessMonitor', () => {
  it('probes new roots at once', () => {
    const base = tempDir();
    fs.writeFileSync(path.join(base, 'file'), '');
    const m = monitor();
    m.setRoots([
      { id: 'ok', canonicalPath: base },
      { id: 'gone', canonicalPath: path.join(base, 'nope') },
      { id: 'file', canonicalPath: path.join(base, 'file') },
    ]);
    expect(m.get('ok').state).toBe('ok');
    expect(m.get('gone').state).toBe('missing');
    expect(m.get('file').state).toBe('not-directory');
  });

  it('sees a folder deleted, and restored', async () => {
    const { dir, m } = watched();
    fs.rmSync(dir, { recursive: true });
    await becomes(m, 'missing', 'deleted');
    fs.mkdirSync(dir);
    await becomes(m, 'ok', 'restored');
  });

  it('sees a folder renamed away and back', async () => {
    const { parent, dir, m } = watched();
    fs.renameSync(dir, path.join(parent, 'renamed'));
    await becomes(m, 'missing', 'renamed');
    fs.renameSync(path.join(parent, 'renamed'), dir);
    await becomes(m, 'ok', 'renamed back');
  });

  it('sees a parent renamed, and a grandparent, and each renamed back', async () => {
    const { base, parent, m } = watched();
    fs.renameSync(parent, `${parent}-moved`);
    await becomes(m, 'missing', 'parent renamed');
    fs.renameSync(`${parent}-moved`, parent);
    await becomes(m, 'ok', 'parent renamed back');
    fs.renameSync(base, `${base}-moved`);
    try {
      await becomes(m, 'missing', 'grandparent renamed');
    } finally {
      fs.renameSync(`${base}-moved`, base);
    }
    await becomes(m, 'ok', 'grandparent renamed back');
  });

  it('follows a missing folder up to its nearest existing ancestor and sees it come back step by step', async () => {
    const base = tempDir();
    const dir = path.join(base, 'a', 'b', 'c');
    const m = monitor();
    m.setRoots([{ id: 'r', canonicalPath: dir }]);
    expect(m.get('r').state).toBe('missing');
    expect(m.watchedFor('r').at(-1)).toBe(base);
    fs.mkdirSync(path.join(base, 'a'));
    // Each step made is followed with a watch before the next one is looked for.
    await waitFor(() => m.watchedFor('r').at(-1) === path.join(base, 'a'), { what: 'a followed', timeoutMs: 30_000 });
    fs.mkdirSync(path.join(base, 'a', 'b'));
    fs.mkdirSync(dir);
    await becomes(m, 'ok', 'created step by step');
    expect(m.watchedFor('r').at(-1)).toBe(path.join(base, 'a', 'b'));
  });

  it('sees a folder swapped for a symlink, and a parent swapped for one', async () => {
    const { base, parent, dir, m } = watched();
    const elsewhere = path.join(base, 'elsewhere');
    fs.mkdirSync(path.join(elsewhere, 'child'), { recursive: true });
    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(path.join(elsewhere, 'child'), dir);
    await becomes(m, 'target-changed', 'folder swapped for a symlink');
    expect(m.get('r').reason).toContain(elsewhere);
    fs.rmSync(dir);
    fs.mkdirSync(dir);
    await becomes(m, 'ok', 'a real folder again');

    fs.rmSync(parent, { recursive: true });
    fs.symlinkSync(elsewhere, parent);
    await becomes(m, 'target-changed', 'parent swapped for a symlink');
    expect(m.get('r').reason).toContain(elsewhere);
  });

  it('sees a folder replaced by a file', async () => {
    const { dir, m } = watched();
    fs.rmSync(dir, { recursive: true });
    fs.writeFileSync(dir, 'not a folder');
    await becomes(m, 'not-directory', 'replaced by a file');
  });

  it('shares one watch per directory: 1,000 roots in one folder cost its ancestors, not 1,000 watches', async () => {
    const base = tempDir();
    const roots: MonitoredRoot[] = Array.from({ length: 1000 }, (_, i) => ({ id: `r${i}`, canonicalPath: path.join(base, `d${i}`) }));
    for (const root of roots) fs.mkdirSync(root.canonicalPath);
    const m = monitor();
    const events: number[] = [];
    m.on('change', (changed) => events.push(changed.size));
    m.setRoots(roots);
    await Promise.resolve();
    expect(events).toEqual([1000]);
    // The folder itself and every directory above it: one watch each, whatever the number of roots.
    expect(m.watchedFor('r0')).toEqual([...ancestorsOf(base), base]);
    expect(m.watcherCount).toBe(ancestorsOf(base).length + 1);

    // Each root is told apart by its entry name: one change concerns one root.
    fs.rmSync(path.join(base, 'd500'), { recursive: true });
    await waitFor(() => m.get('r500').state === 'missing', { what: 'd500 missing', timeoutMs: 30_000 });
    expect(roots.filter((root) => m.get(root.id).state !== 'ok').map((root) => root.id)).toEqual(['r500']);

    m.setRoots([]);
    expect(m.watcherCount).toBe(0);
  });

  it('never watches the root itself: the writes inside a busy folder wake nothing', async () => {
    const { dir, m } = watched();
    expect(m.watchedFor('r')).not.toContain(dir);
    await new Promise((resolve) => setImmediate(resolve)); // the first probe's event has gone out
    const events: unknown[] = [];
    m.on('change', (changed) => events.push(changed));
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(dir, `f${i}`), 'x');
    // A change after the writes is the fact waited for: by then, the writes had their chance to show.
    fs.rmSync(dir, { recursive: true });
    await becomes(m, 'missing', 'deleted after the writes');
    expect(events).toHaveLength(1);
  });

  it('stops watching directories no root passes through any more', async () => {
    const base = tempDir();
    const one = path.join(base, 'one', 'x');
    const two = path.join(base, 'two', 'y');
    fs.mkdirSync(one, { recursive: true });
    fs.mkdirSync(two, { recursive: true });
    const m = monitor();
    m.setRoots([
      { id: 'one', canonicalPath: one },
      { id: 'two', canonicalPath: two },
    ]);
    const shared = ancestorsOf(base).length + 1;
    expect(m.watcherCount).toBe(shared + 2);
    m.setRoots([{ id: 'two', canonicalPath: two }]);
    expect(m.watcherCount).toBe(shared + 1);
    fs.renameSync(path.join(base, 'two'), path.join(base, 'two-moved'));
    await waitFor(() => m.get('two').state === 'missing', { what: 'two missing', timeoutMs: 30_000 });
    // The moved folder's watch would now report on a folder elsewhere: it is gone.
    expect(m.watcherCount).toBe(shared);
  });
});

/**
 * A monitor in a child process run as a user that permissions apply to (nobody, when the tests run
 * as root: root reads every folder whatever its mode). Its facts arrive as JSON lines.
 */
function childMonitor(roots: MonitoredRoot[], sweepIntervalMs = 0) {
  const asRoot = process.getuid?.() === 0;
  const command = [process.execPath, '--import', 'tsx', 'tests/fixtures/access-monitor-child.ts', JSON.stringify({ roots, sweepIntervalMs })];
  const argv = asRoot ? ['setpriv', '--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...command] : command;
  const child = spawn(argv[0] as string, argv.slice(1), { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const states = new Map<string, string>();
  let ready: { uid: number; watches: number } | undefined;
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const fact = JSON.parse(line) as { ready?: boolean; uid: number; watches: number; states?: Record<string, string>; id?: string; state?: string };
    if (fact.ready) {
      ready = fact;
      for (const [id, state] of Object.entries(fact.states ?? {})) states.set(id, state);
    } else if (fact.id !== undefined && fact.state !== undefined) states.set(fact.id, fact.state);
  });
  return {
    ready: () => waitFor(() => ready, { what: 'the child monitor', timeoutMs: 60_000 }),
    becomes: (id: string, state: string, what: string) =>
      waitFor(() => states.get(id) === state, { what: `${what}: ${state} (last: ${states.get(id)})`, timeoutMs: 30_000 }),
  };
}

/** A tree the unprivileged child can reach: base/parent/child, searchable by everyone. */
function openTree(): { parent: string; dir: string } {
  const base = tempDir();
  const parent = path.join(base, 'parent');
  const dir = path.join(parent, 'child');
  fs.mkdirSync(dir, { recursive: true });
  for (const at of [base, parent, dir]) fs.chmodSync(at, 0o755);
  return { parent, dir };
}

describe('AccessMonitor, where permissions apply', () => {
  it('sees permissions taken from a folder and from its parent, and given back', async () => {
    const { parent, dir } = openTree();
    const child = childMonitor([{ id: 'r', canonicalPath: dir }]);
    const ready = await child.ready();
    expect(ready.uid === 0).toBe(false);
    await child.becomes('r', 'ok', 'at start');
    fs.chmodSync(dir, 0o000);
    await child.becomes('r', 'permission-denied', 'folder chmod 000');
    fs.chmodSync(dir, 0o755);
    await child.becomes('r', 'ok', 'folder chmod 755');
    fs.chmodSync(parent, 0o700);
    await child.becomes('r', 'permission-denied', 'parent chmod 700 (not searchable by others)');
    fs.chmodSync(parent, 0o755);
    await child.becomes('r', 'ok', 'parent chmod 755');
  }, 90_000);

  it('the sweep covers a folder whose parent cannot be watched (not readable)', async () => {
    const { parent, dir } = openTree();
    // Searchable but not readable: the folder can be probed, its parent cannot be watched.
    fs.chmodSync(parent, 0o711);
    const child = childMonitor([{ id: 'r', canonicalPath: dir }], 200);
    await child.ready();
    await child.becomes('r', 'ok', 'at start');
    fs.rmSync(dir, { recursive: true });
    await child.becomes('r', 'missing', 'deleted, seen by the sweep');
  }, 90_000);
});
