import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMain } from '../../../support/cli-in-process.js';
import { removeTempDirs, tempDir } from '../../../support/temp-dirs.js';

let home: string;
let configDir: string;
const cli = (args: string[], cwd = home) => runMain(['--config-dir', configDir, ...args], { cwd, home });
const rootsJson = async () => JSON.parse((await cli(['roots', 'list', '--json'])).stdout) as { name: string; path: string; shortId: string; label: string }[];

beforeEach(() => {
  home = tempDir('home-');
  configDir = tempDir('config-');
  for (const folder of ['code/project-a', 'code/project-b/docs', 'My Notes', 'a/src', 'b/src']) fs.mkdirSync(path.join(home, folder), { recursive: true });
});
afterEach(removeTempDirs);

describe('roots add', () => {
  it('takes ., relative paths, ~ and file:// URIs, resolved where the command was typed', async () => {
    const result = await cli(['roots', 'add', '.', '../project-b/docs', '~/My Notes', `file://${home}/a/src`], path.join(home, 'code/project-a'));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect((await rootsJson()).map((root) => root.path)).toEqual([
      path.join(home, 'code/project-a'),
      path.join(home, 'code/project-b/docs'),
      path.join(home, 'My Notes'),
      path.join(home, 'a/src'),
    ]);
    expect(result.stdout).toMatch(/^added project-a {2}\/.*\/code\/project-a {2}\([0-9a-f]{6,}\)$/m);
  });

  it('says a folder that is a root already is one, and succeeds', async () => {
    await cli(['roots', 'add', '~/a/src']);
    const again = await cli(['roots', 'add', path.join(home, 'a/src')]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^already a root: src {2}.*\/a\/src {2}\([0-9a-f]{6,}\)$/m);
    expect(await rootsJson()).toHaveLength(1);
  });

  it('adds what it can and exits 1 naming each folder it could not add', async () => {
    const result = await cli(['roots', 'add', '~/a/src', 'missing', 'https://example.com/x']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^added src/);
    expect(result.stderr).toBe(`mcp-roots: not added: "${path.join(home, 'missing')}" does not exist.\nmcp-roots: not added: Only file:// URIs can be roots, not https:.\n`);
    expect(await rootsJson()).toHaveLength(1);
  });
});

describe('roots list, rename, remove', () => {
  it('lists roots of one name by labels that tell them apart', async () => {
    await cli(['roots', 'add', '~/a/src', '~/b/src']);
    expect((await rootsJson()).map((root) => root.label)).toEqual(['a/src', 'b/src']);
    const text = (await cli(['roots', 'list'])).stdout;
    expect(text).toMatch(/^[0-9a-f]{6} {2}a\/src {2}ok {2}\/.*\/a\/src$/m);
  });

  it('renames a root, and removing one says whom it was revoked from', async () => {
    await cli(['roots', 'add', '~/a/src']);
    await cli(['servers', 'add', 'fs', '--', 'node', 'server.js']);
    await cli(['grant', 'fs', 'src']);
    expect((await cli(['roots', 'rename', 'src', 'frontend'])).stdout).toBe('renamed src to frontend\n');
    const removed = await cli(['roots', 'remove', 'frontend']);
    expect(removed.stdout).toMatch(/^removed frontend \([0-9a-f]{6}\); revoked from fs\n$/);
    expect(await rootsJson()).toEqual([]);
  });
});
