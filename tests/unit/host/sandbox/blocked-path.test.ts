import { describe, expect, it } from 'vitest';
import { findBlockedPath, type HostFacts } from '../../../../electron/host/sandbox/blocked-path.js';
import type { SandboxMount } from '../../../../electron/host/sandbox/sandbox-types.js';

const mounts: SandboxMount[] = [
  { path: '/usr', writable: false, purpose: 'system' },
  { path: '/tmp', writable: true, purpose: 'tmp' },
  { path: '/home/me/code', writable: true, purpose: 'root' },
  { path: '/home/me/docs', writable: false, purpose: 'root' },
  { path: '/data/sandbox/servers/s/home', writable: true, purpose: 'home' },
];
const hostDirs = new Set(['/', '/home', '/home/me', '/home/me/code', '/home/me/docs', '/home/me/private', '/tmp', '/tmp/work']);
const hostFiles = new Set(['/home/me/private/notes.txt', '/home/me/docs/a.md']);
const host: HostFacts = { exists: (p) => hostDirs.has(p) || hostFiles.has(p), isDirectory: (p) => hostDirs.has(p) };

describe('findBlockedPath', () => {
  it.each([
    ["Error: ENOENT: no such file or directory, open '/home/me/private/notes.txt'", 'ENOENT'],
    ["FileNotFoundError: [Errno 2] No such file or directory: '/home/me/private/notes.txt'", 'ENOENT'],
    ['cat: /home/me/private/notes.txt: No such file or directory', 'ENOENT'],
    ["PermissionError: [Errno 13] Permission denied: '/home/me/private/notes.txt'", 'EACCES'],
  ])('names a host file outside the grants and its folder: %s', (line, code) => {
    expect(findBlockedPath([line], mounts, host)).toEqual({
      kind: 'outside-grants',
      path: '/home/me/private/notes.txt',
      folder: '/home/me/private',
      code,
      line,
    });
  });

  it('names the folder of a file the server meant to create outside its grants', () => {
    const blocked = findBlockedPath(["Error: ENOENT: no such file or directory, open '/home/me/private/new.txt'"], mounts, host);
    expect(blocked).toMatchObject({ kind: 'outside-grants', folder: '/home/me/private' });
  });

  it('offers a host folder itself, as server-filesystem words it', () => {
    const blocked = findBlockedPath(['Warning: Cannot access directory /tmp/work, skipping'], mounts, host);
    expect(blocked).toMatchObject({ kind: 'outside-grants', path: '/tmp/work', folder: '/tmp/work', code: 'inaccessible' });
  });

  it('says a write into a read-only grant needs read-write', () => {
    const line = "Error: EROFS: read-only file system, open '/home/me/docs/a.md'";
    expect(findBlockedPath([line], mounts, host)).toMatchObject({ kind: 'read-only-grant', folder: '/home/me/docs', code: 'EROFS' });
  });

  it('ignores errors inside the grants and paths that do not exist on the host either', () => {
    expect(findBlockedPath(["Error: ENOENT: no such file or directory, open '/home/me/code/typo.txt'"], mounts, host)).toBeUndefined();
    expect(findBlockedPath(["Error: ENOENT: no such file or directory, open '/nowhere/at/all'"], mounts, host)).toBeUndefined();
    expect(findBlockedPath(['listening on stdio', 'ready'], mounts, host)).toBeUndefined();
  });

  it('reports bwrap’s own setup failure', () => {
    const line = "bwrap: Can't find source path /opt/tool: No such file or directory";
    expect(findBlockedPath(['starting', line], mounts, host)).toMatchObject({ kind: 'sandbox-setup', path: '/opt/tool', code: 'bwrap' });
  });
});
