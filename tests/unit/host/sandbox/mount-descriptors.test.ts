// Binds by descriptor: what is opened must be what the plan saw.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { identityOf, openMountDescriptors } from '../../../../electron/host/sandbox/mount-descriptors.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => removeTempDirs());

describe('openMountDescriptors', () => {
  it('opens each folder and file in order and closes them all', () => {
    const dir = tempDir('desc-');
    const file = path.join(dir, 'f.txt');
    fs.writeFileSync(file, 'x');
    const opened = openMountDescriptors([
      { path: dir, identity: identityOf(dir)! },
      { path: file, identity: identityOf(file)! },
    ]);
    expect(opened.fds).toHaveLength(2);
    expect(fs.readlinkSync(`/proc/self/fd/${opened.fds[0]}`)).toBe(dir);
    opened.close();
    expect(() => fs.fstatSync(opened.fds[0] ?? -1)).toThrow();
  });

  it('refuses a folder replaced by another one (another inode) and closes what it had opened', () => {
    const first = tempDir('desc-');
    const second = tempDir('desc-');
    const identity = identityOf(second)!;
    // Moved away, not removed: a removed folder's inode may be handed straight to the new one.
    fs.renameSync(second, path.join(first, 'old'));
    fs.mkdirSync(second);
    const before = fs.readdirSync('/proc/self/fd').length;
    expect(() => openMountDescriptors([{ path: first, identity: identityOf(first)! }, { path: second, identity }])).toThrow(expect.objectContaining({ code: 'folder-changed' }));
    expect(fs.readdirSync('/proc/self/fd').length).toBeLessThanOrEqual(before);
  });

  it('refuses a symlink where the folder was, and a folder that is gone', () => {
    const dir = tempDir('desc-');
    const granted = path.join(dir, 'granted');
    fs.mkdirSync(granted);
    const identity = identityOf(granted)!;
    fs.renameSync(granted, `${granted}-moved`);
    fs.symlinkSync(`${granted}-moved`, granted);
    expect(() => openMountDescriptors([{ path: granted, identity }])).toThrow(/became a symlink/);
    fs.unlinkSync(granted);
    expect(() => openMountDescriptors([{ path: granted, identity }])).toThrow(/is gone/);
  });

  it('identityOf names no symlink and nothing missing', () => {
    const dir = tempDir('desc-');
    fs.symlinkSync(dir, path.join(dir, 'link'));
    expect(identityOf(path.join(dir, 'link'))).toBeUndefined();
    expect(identityOf(path.join(dir, 'missing'))).toBeUndefined();
    expect(identityOf(dir)).toMatchObject({ directory: true });
  });
});
