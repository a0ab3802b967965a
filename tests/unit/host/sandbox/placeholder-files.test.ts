// Placeholders are made and removed through their folder's descriptor (placeholder-files.ts): a
// second server sharing the folder that swaps the folder for a symlink (or for another folder, with
// RENAME_EXCHANGE) as fast as it can never gets the app to make or remove a file anywhere else. The
// racer is a separate process; the ungranted project holds files of the very names placeholders have.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePlaceholder, removePlaceholder, unchanged } from '../../../../electron/host/sandbox/placeholder-files.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(removeTempDirs);

const NAMES = ['.npmrc', '.mcp.json', '.gitmodules'];

describe('placeholders', () => {
  it('are made empty and private (0700 folders, 0600 files), and removed only while unchanged', () => {
    const dir = tempDir('placeholder-');
    const folder = makePlaceholder(dir, '.gnupg', true);
    const file = makePlaceholder(dir, '.npmrc', false);
    expect(fs.statSync(path.join(dir, '.gnupg')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, '.npmrc')).mode & 0o777).toBe(0o600);
    expect(folder && unchanged(folder)).toBe(true);
    // The person writes into one: it is theirs, and stays.
    fs.writeFileSync(path.join(dir, '.npmrc'), 'mine\n');
    removePlaceholder(file as NonNullable<typeof file>);
    removePlaceholder(folder as NonNullable<typeof folder>);
    expect(fs.readdirSync(dir)).toEqual(['.npmrc']);
  });

  it('refuses a folder reached through a symlink', () => {
    const dir = tempDir('placeholder-');
    const elsewhere = tempDir('placeholder-elsewhere-');
    fs.symlinkSync(elsewhere, path.join(dir, 'link'));
    expect(makePlaceholder(path.join(dir, 'link'), '.mcp.json', false)).toBeUndefined();
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it.runIf(fs.existsSync('/usr/bin/python3'))('never removes a file of an ungranted project while a racer swaps the folder for a link to it', async () => {
    const shared = tempDir('placeholder-shared-');
    const project = path.join(shared, 'project');
    const ungranted = tempDir('placeholder-ungranted-');
    for (const name of NAMES) fs.writeFileSync(path.join(ungranted, name), 'the person’s own\n');
    fs.mkdirSync(project);
    // The racer: swaps `project` with a symlink to the ungranted project, and back, without end.
    const link = path.join(shared, 'decoy');
    fs.symlinkSync(ungranted, link);
    const racer = spawn('/usr/bin/python3', [
      '-c',
      `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
while True:
    libc.renameat2(-100, a, -100, b, 2)
`,
      project,
      link,
    ]);
    try {
      // Once it swaps (the folder seen as the link at least once), race it for three seconds.
      const started = Date.now();
      while (!fs.lstatSync(project, { throwIfNoEntry: false })?.isSymbolicLink()) {
        if (Date.now() - started > 20_000) throw new Error('the racer did not start');
      }
      let made = 0;
      for (const until = Date.now() + 3000; Date.now() < until; ) {
        for (const name of NAMES) {
          // Whatever `project` is at this instant: a placeholder is made in the folder, or not at all.
          const placeholder = makePlaceholder(project, name, false);
          if (placeholder) made++;
          if (placeholder) removePlaceholder(placeholder);
        }
      }
      expect(made).toBeGreaterThan(0);
    } finally {
      racer.kill('SIGKILL');
    }
    for (const name of NAMES) expect(fs.readFileSync(path.join(ungranted, name), 'utf8'), name).toBe('the person’s own\n');
    expect(fs.readdirSync(ungranted).sort()).toEqual([...NAMES].sort());
  }, 60_000);
});
