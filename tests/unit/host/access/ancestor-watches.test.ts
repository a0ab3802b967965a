// The shared watches on the way to each root: what a walk reports, which roots an event touches,
// and the safety net's cheap check for an event that never came.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AncestorWatches } from '../../../../electron/host/access/ancestor-watches.js';
import { removeTempDirs, tempDir, waitFor } from '../../../support/index.js';

const made: AncestorWatches[] = [];
afterEach(() => {
  for (const watches of made.splice(0)) watches.closeAll();
  removeTempDirs();
});

function watches(): { w: AncestorWatches; touched: string[] } {
  const touched: string[] = [];
  const w = new AncestorWatches((ids) => touched.push(...ids));
  made.push(w);
  return { w, touched };
}

describe('AncestorWatches', () => {
  it('says what the walk saw above a root: real folders, a missing step, a file, a symlink', () => {
    const base = tempDir();
    fs.mkdirSync(path.join(base, 'real', 'root'), { recursive: true });
    fs.writeFileSync(path.join(base, 'file'), '');
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'link'));
    const { w } = watches();
    expect(w.follow('a', path.join(base, 'real', 'root'))).toBe('folders');
    expect(w.follow('b', path.join(base, 'gone', 'root'))).toBe('missing');
    expect(w.follow('c', path.join(base, 'file', 'root'))).toBe('not-a-folder');
    expect(w.follow('d', path.join(base, 'link', 'root'))).toBe('unknown');
    // Each is followed down to the last real folder on its way, and no further.
    expect(w.chainOf('a').at(-1)).toBe(path.join(base, 'real'));
    for (const id of ['b', 'c', 'd']) expect(w.chainOf(id).at(-1)).toBe(base);
  });

  it('touches only the roots behind the entry that changed', async () => {
    const base = tempDir();
    for (const name of ['x', 'y']) fs.mkdirSync(path.join(base, name, 'root'), { recursive: true });
    const { w, touched } = watches();
    w.follow('x', path.join(base, 'x', 'root'));
    w.follow('y', path.join(base, 'y', 'root'));
    fs.renameSync(path.join(base, 'x'), path.join(base, 'x-moved'));
    await waitFor(() => touched.includes('x'), { what: 'x touched', timeoutMs: 30_000 });
    expect(touched).not.toContain('y');
  });

  it('the cheap check finds a watched folder replaced while no event was read, and a new walk re-arms it', () => {
    const base = tempDir();
    const parent = path.join(base, 'parent');
    const root = path.join(parent, 'root');
    fs.mkdirSync(root, { recursive: true });
    const { w } = watches();
    w.follow('r', root);
    expect([...w.unsure()]).toEqual([]);
    // Synchronously: the event loop has not run, so no watch event has been read.
    fs.renameSync(parent, `${parent}-old`);
    fs.mkdirSync(root, { recursive: true });
    expect([...w.unsure()]).toEqual(['r']);
    expect(w.follow('r', root)).toBe('folders');
    expect([...w.unsure()]).toEqual([]);
  });

  it('holds one watch per directory, and lets each go when no root passes through it', () => {
    const base = tempDir();
    const roots = Array.from({ length: 100 }, (_, i) => path.join(base, `p${i}`));
    for (const root of roots) fs.mkdirSync(root);
    const { w } = watches();
    roots.forEach((root, i) => w.follow(`r${i}`, root));
    const directories = w.chainOf('r0').length;
    expect(w.count).toBe(directories);
    roots.forEach((_, i) => w.forget(`r${i}`));
    expect(w.count).toBe(0);
  });
});
