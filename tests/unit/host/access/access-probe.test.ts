// Each way a folder can become unreachable gets its own state and a stable reason code, which the UI
// translates; the English reason stays for the CLI.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeRoot } from '../../../../electron/host/access/access-probe.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => removeTempDirs());

describe('probeRoot', () => {
  it('reports a reachable folder without a reason', () => {
    const folder = fs.realpathSync(tempDir('probe-ok-'));
    expect(probeRoot(folder, 5)).toEqual({ state: 'ok', checkedAt: 5 });
  });

  it('gives each failure its state, code and English reason', () => {
    const work = fs.realpathSync(tempDir('probe-'));
    const file = path.join(work, 'file');
    fs.writeFileSync(file, 'x');
    const elsewhere = path.join(work, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const swapped = path.join(work, 'swapped');
    fs.symlinkSync(elsewhere, swapped);

    expect(probeRoot(path.join(work, 'missing'))).toMatchObject({ state: 'missing', reasonCode: 'deleted' });
    expect(probeRoot(path.join(file, 'below'))).toMatchObject({ state: 'missing', reasonCode: 'parent-not-folder' });
    expect(probeRoot(file)).toMatchObject({ state: 'not-directory', reasonCode: 'became-file', reason: 'It is a file now, not a folder.' });
    expect(probeRoot(swapped)).toMatchObject({ state: 'target-changed', reasonCode: 'leads-elsewhere', target: elsewhere });

    const loop = path.join(work, 'loop');
    fs.symlinkSync(loop, loop);
    expect(probeRoot(loop)).toMatchObject({ state: 'error', reasonCode: 'symlink-loop' });
  });

  it.skipIf(process.getuid?.() === 0)('reports a folder it may not read', () => {
    const locked = fs.realpathSync(tempDir('probe-locked-'));
    fs.chmodSync(locked, 0o000);
    try {
      expect(probeRoot(locked)).toMatchObject({ state: 'permission-denied', reasonCode: 'no-permission' });
    } finally {
      fs.chmodSync(locked, 0o700);
    }
  });

  it('answers the same when the caller says what it saw above the folder (the monitor\'s walk)', () => {
    const work = fs.realpathSync(tempDir('probe-above-'));
    const ok = path.join(work, 'ok');
    const file = path.join(work, 'file');
    const elsewhere = path.join(work, 'elsewhere');
    const toFolder = path.join(work, 'to-folder');
    const toFile = path.join(work, 'to-file');
    const dangling = path.join(work, 'dangling');
    fs.mkdirSync(ok);
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(file, 'x');
    fs.symlinkSync(elsewhere, toFolder);
    fs.symlinkSync(file, toFile);
    fs.symlinkSync(path.join(work, 'nothing'), dangling);
    // Every directory above these is a real one: 'folders' must change nothing but the cost.
    for (const folder of [ok, file, toFolder, toFile, dangling, path.join(work, 'missing')]) {
      expect(probeRoot(folder, 1, 'folders'), folder).toEqual(probeRoot(folder, 1));
    }
    // A missing or file parent, as the walk saw it, answers like a look would.
    expect(probeRoot(path.join(work, 'gone', 'below'), 1, 'missing')).toEqual(probeRoot(path.join(work, 'gone', 'below'), 1));
    expect(probeRoot(path.join(file, 'below'), 1, 'not-a-folder')).toEqual(probeRoot(path.join(file, 'below'), 1));
  });
});
