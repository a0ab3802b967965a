import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccessMonitor } from '../../../electron/host/access-monitor.js';
import { removeTempDirs, tempDir, waitFor } from '../../support/index.js';

const monitors: AccessMonitor[] = [];
afterEach(() => {
  for (const monitor of monitors.splice(0)) monitor.stop();
  removeTempDirs();
});

function monitor(sweepIntervalMs = 1000): AccessMonitor {
  const created = new AccessMonitor({ sweepIntervalMs });
  monitors.push(created);
  return created;
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

  it('notices a deleted folder through its watcher, not the sweep', async () => {
    const dir = path.join(tempDir(), 'watched');
    fs.mkdirSync(dir);
    const m = monitor(60_000); // no sweep: only the watcher can see it
    m.setRoots([{ id: 'r', canonicalPath: dir }]);
    fs.rmSync(dir, { recursive: true });
    // Well before the first sweep (60 s): only the watcher can have seen it. How fast: the benchmark.
    await waitFor(() => m.get('r').state === 'missing', { what: 'missing', timeoutMs: 30_000 });
  });

  it('notices a renamed parent, a restored folder and a folder swapped for a symlink through the sweep', async () => {
    const base = tempDir();
    const parent = path.join(base, 'parent');
    const dir = path.join(parent, 'child');
    fs.mkdirSync(dir, { recursive: true });
    const m = monitor(100);
    m.setRoots([{ id: 'r', canonicalPath: dir }]);
    fs.renameSync(parent, path.join(base, 'moved'));
    await waitFor(() => m.get('r').state === 'missing', { what: 'missing after parent rename' });
    fs.renameSync(path.join(base, 'moved'), parent);
    await waitFor(() => m.get('r').state === 'ok', { what: 'ok after restore' });

    const elsewhere = path.join(base, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(elsewhere, dir);
    await waitFor(() => m.get('r').state === 'target-changed', { what: 'target-changed' });
    expect(m.get('r').reason).toContain(elsewhere);
  });

  it('coalesces changes into one event and keeps one watcher per healthy root', async () => {
    const base = tempDir();
    const dirs = Array.from({ length: 50 }, (_, i) => path.join(base, `d${i}`));
    for (const dir of dirs) fs.mkdirSync(dir);
    const m = monitor(60_000);
    const events: number[] = [];
    m.on('change', (changed) => events.push(changed.size));
    m.setRoots(dirs.map((dir, i) => ({ id: `r${i}`, canonicalPath: dir })));
    await Promise.resolve();
    expect(events).toEqual([50]);
    expect(m.watcherCount).toBe(50);
    m.setRoots([]);
    expect(m.watcherCount).toBe(0);
  });
});
