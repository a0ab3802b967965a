// A grant's opt-in (protected names the person chose to leave writable) opens exactly those names in
// exactly that grant: the rest stay protected, other grants stay protected, a read-only grant ignores it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdMissing, protectedInputOf, protectedPaths, releasePlaceholders } from '../../../../electron/host/sandbox/protected-paths.js';
import { planBwrap } from '../../../../electron/host/sandbox/bwrap-plan.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => removeTempDirs());

function project(): string {
  const dir = tempDir('grant-');
  execFileSync('git', ['init', '-q', dir]);
  fs.mkdirSync(path.join(dir, '.vscode'));
  fs.mkdirSync(path.join(dir, '.claude'));
  return dir;
}

const home = '/nonexistent-home';

describe('a grant’s opt-in of protected names', () => {
  it('leaves the opted-in name writable in that grant only, and keeps every other name protected', () => {
    const chosen = project();
    const other = project();
    const held = protectedPaths(protectedInputOf([
      { path: chosen, mode: 'read-write', writableByChoice: ['.vscode'] },
      { path: other, mode: 'read-write' },
    ], home));
    expect(held).not.toContain(path.join(chosen, '.vscode'));
    expect(held).toEqual(expect.arrayContaining([path.join(chosen, '.claude'), path.join(chosen, '.git/hooks'), path.join(chosen, '.git/config')]));
    expect(held).toEqual(expect.arrayContaining([path.join(other, '.vscode'), path.join(other, '.claude')]));
  });

  it('is ignored on a read-only grant (nothing there is writable), and a name another grant reaches stays protected', () => {
    const parent = tempDir('grant-');
    const inner = path.join(parent, 'inner');
    fs.mkdirSync(inner);
    execFileSync('git', ['init', '-q', inner]);
    fs.mkdirSync(path.join(inner, '.vscode'));
    const input = protectedInputOf([
      { path: parent, mode: 'read-only', writableByChoice: ['.vscode'] },
      { path: inner, mode: 'read-write' },
    ], home);
    expect(input.writableByChoice?.size).toBe(0);
    // The inner repository's .vscode is found from a read-write grant of a parent that did not opt in.
    const nested = protectedPaths(protectedInputOf([
      { path: parent, mode: 'read-write' },
      { path: inner, mode: 'read-write', writableByChoice: ['.vscode'] },
    ], home));
    expect(nested).toContain(path.join(inner, '.vscode'));
  });

  it('makes no placeholder for an opted-in name that is missing, and still holds the other missing ones', async () => {
    const root = tempDir('grant-');
    execFileSync('git', ['init', '-q', root]);
    const made = holdMissing(protectedInputOf([{ path: root, mode: 'read-write', writableByChoice: ['.mcp.json', '.vscode'] }], home));
    const paths = made.map((placeholder) => placeholder.path);
    expect(paths).not.toContain(path.join(root, '.mcp.json'));
    expect(paths).not.toContain(path.join(root, '.vscode'));
    expect(paths).toEqual(expect.arrayContaining([path.join(root, '.claude'), path.join(root, '.gitmodules')]));
    await releasePlaceholders(made);
  });

  it('the bwrap plan binds every protected path read-only but the opted-in one, which stays in its writable root', () => {
    const root = project();
    const roots = [{ path: root, mode: 'read-write' as const, writableByChoice: ['.vscode'] }];
    const plan = planBwrap({
      bwrap: '/usr/bin/bwrap',
      disableUserns: true,
      layout: { topLevel: [], etc: [] },
      command: '/usr/bin/node',
      args: [],
      env: {},
      programPaths: [],
      roots,
      home: '/srv/home',
      tmp: '/srv/tmp',
      dataDir: '/srv/data',
      network: false,
      protectedPaths: protectedPaths(protectedInputOf(roots, home)),
    });
    const protectedMounts = plan.mounts.filter((mount) => mount.purpose === 'protected').map((mount) => mount.path);
    expect(protectedMounts).toContain(path.join(root, '.claude'));
    expect(protectedMounts).not.toContain(path.join(root, '.vscode'));
    expect(plan.mounts.find((mount) => mount.path === root)).toMatchObject({ writable: true, purpose: 'root' });
  });
});
