import { describe, expect, it } from 'vitest';
import { foldersInArguments } from '../../../../electron/host/sandbox/argument-folders.js';

const dirs = new Set(['/home/me/projects', '/home/me/Documents', '/srv/data', '/home/me/my folder', '/work/app', '/work']);
const isDirectory = (p: string) => dirs.has(p);

describe('foldersInArguments', () => {
  it('finds the folders of `server-filesystem /a /b`, by argument index', () => {
    const found = foldersInArguments({ args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/projects', '/home/me/Documents'], env: {} }, isDirectory);
    expect(found).toEqual([
      { path: '/home/me/projects', source: { kind: 'arg', index: 2 } },
      { path: '/home/me/Documents', source: { kind: 'arg', index: 3 } },
    ]);
  });

  it('reads --flag=/path lists, file:// URIs, trailing slashes and names with spaces', () => {
    const found = foldersInArguments(
      { args: ['--root=/srv/data,/home/me/projects', 'file:///home/me/my%20folder', '/home/me/Documents/'], env: {} },
      isDirectory,
    );
    expect(found.map((folder) => folder.path)).toEqual(['/srv/data', '/home/me/projects', '/home/me/my folder', '/home/me/Documents']);
  });

  it('reads env values with separators, skipping PATH-like variables', () => {
    const found = foldersInArguments({ args: [], env: { ALLOWED_DIRS: '/srv/data:/home/me/projects', PATH: '/work', HOME: '/home/me/projects' } }, isDirectory);
    expect(found).toEqual([
      { path: '/srv/data', source: { kind: 'env', name: 'ALLOWED_DIRS' } },
      { path: '/home/me/projects', source: { kind: 'env', name: 'ALLOWED_DIRS' } },
    ]);
  });

  it('resolves `.` and `./x` against the cwd; ignores files, missing paths, names and ${roots}', () => {
    const found = foldersInArguments({ args: ['.', '/work/app/index.js', '/missing', 'server', '${roots}', '--port', '8080'], env: {}, cwd: '/work/app' }, isDirectory);
    expect(found).toEqual([{ path: '/work/app', source: { kind: 'arg', index: 0 } }]);
  });

  it('lists a folder named twice once', () => {
    expect(foldersInArguments({ args: ['/srv/data', '/srv/data/'], env: { DATA: '/srv/data' } }, isDirectory)).toHaveLength(1);
  });
});
