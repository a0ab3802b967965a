// The folder picker's listing: folders only, sorted as people read them, hidden ones on request,
// links to folders included, `~` expanded, and errors as codes the UI translates.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch, hostHandlers, type ContractHandlers } from '../../../../electron/host/contract-handlers.js';
import { expandHome, listFolders } from '../../../../electron/host/access/folder-listing.js';
import { startHost, stopHosts } from '../../../support/host-harness.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

/** The host's own channels are all this test calls. */
const handlers = hostHandlers as unknown as ContractHandlers;

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

function tree(): string {
  const dir = tempDir('folders-');
  for (const name of ['project 10', 'project 9', 'Alpha', '.config', 'ünïcode']) fs.mkdirSync(path.join(dir, name));
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'a file, never listed');
  fs.symlinkSync(path.join(dir, 'Alpha'), path.join(dir, 'alpha-link'));
  fs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'broken-link'));
  return dir;
}

describe('listFolders', () => {
  it('lists subfolders only, in natural order, with links to folders marked', async () => {
    const dir = tree();
    const listing = await listFolders({ path: dir });
    expect(listing.path).toBe(dir);
    expect(listing.parent).toBe(path.dirname(dir));
    expect(listing.entries.map((entry) => entry.name)).toEqual(['Alpha', 'alpha-link', 'project 9', 'project 10', 'ünïcode']);
    expect(listing.entries.find((entry) => entry.name === 'alpha-link')?.link).toBe(true);
    expect(listing.truncated).toBe(false);
  });

  it('shows hidden folders only when asked', async () => {
    const dir = tree();
    const listing = await listFolders({ path: dir, showHidden: true });
    expect(listing.entries.filter((entry) => entry.hidden).map((entry) => entry.name)).toEqual(['.config']);
  });

  it('starts at home, expands ~, and has no parent at the top of the disk', async () => {
    expect((await listFolders({})).path).toBe(os.homedir());
    expect(expandHome('~/projects', '/home/me')).toBe(path.join('/home/me', 'projects'));
    expect(expandHome('~', '/home/me')).toBe('/home/me');
    expect(expandHome('~other/x', '/home/me')).toBe('~other/x');
    expect((await listFolders({ path: '/' })).parent).toBeUndefined();
  });

  it('refuses relative, missing and file paths with codes', async () => {
    const dir = tree();
    await expect(listFolders({ path: 'relative/dir' })).rejects.toMatchObject({ code: 'not-absolute' });
    await expect(listFolders({ path: path.join(dir, 'missing') })).rejects.toMatchObject({ code: 'missing' });
    await expect(listFolders({ path: path.join(dir, 'notes.txt') })).rejects.toMatchObject({ code: 'not-directory' });
  });
});

describe('through the contract', () => {
  it('folders.list answers a Result, and roots.add expands ~', async () => {
    const host = await startHost();
    const dir = tree();
    const listed = await dispatch(handlers, host, 'folders.list', { path: dir });
    expect(listed.ok && (listed.value as { entries: unknown[] }).entries.length).toBe(5);
    const bad = await dispatch(handlers, host, 'folders.list', { path: 'x', extra: true });
    expect(bad.ok).toBe(false);
    const home = os.homedir();
    const added = await dispatch(handlers, host, 'roots.add', { paths: ['~'] });
    expect(added.ok && (added.value as { added: { path: string }[] }).added.map((root) => root.path)).toEqual([home]);
  });
});
