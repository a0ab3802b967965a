// Which paths inside read-write grants stay read-only: real folders in temp dirs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configuredHooksPath, holdMissing, protectedPaths, protectRoots, releasePlaceholders } from '../../../../electron/host/sandbox/protected-paths.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => removeTempDirs());

function repo(dir: string): string {
  execFileSync('git', ['init', '-q', dir]);
  return dir;
}

describe('protectedPaths', () => {
  it('holds a repository’s hooks and config, and the tool configs that exist at its top', () => {
    const root = repo(tempDir('grant-'));
    fs.mkdirSync(path.join(root, '.vscode'));
    fs.writeFileSync(path.join(root, '.mcp.json'), '{}');
    fs.writeFileSync(path.join(root, 'Makefile'), 'all:\n');
    const held = protectedPaths({ writableRoots: [root], home: '/nonexistent-home' });
    expect(held).toEqual(expect.arrayContaining([path.join(root, '.git/hooks'), path.join(root, '.git/config'), path.join(root, '.vscode'), path.join(root, '.mcp.json')]));
    // Source the person runs on purpose stays editable; absent names are not invented.
    expect(held).not.toContain(path.join(root, 'Makefile'));
    expect(held).not.toContain(path.join(root, '.idea'));
  });

  it('creates a missing .git/hooks so it can be held (as git init does), and holds it', () => {
    const root = repo(tempDir('grant-'));
    fs.rmSync(path.join(root, '.git/hooks'), { recursive: true });
    expect(protectedPaths({ writableRoots: [root], home: '/nonexistent-home' })).toContain(path.join(root, '.git/hooks'));
    expect(fs.statSync(path.join(root, '.git/hooks')).isDirectory()).toBe(true);
  });

  it('finds repositories below the grant, but not inside node_modules, and not past its depth', () => {
    const root = tempDir('grant-');
    const nested = repo(path.join(root, 'code', 'app'));
    repo(path.join(root, 'node_modules', 'dep'));
    repo(path.join(root, 'a', 'b', 'c', 'd'));
    const held = protectedPaths({ writableRoots: [root], home: '/nonexistent-home' });
    expect(held).toContain(path.join(nested, '.git/config'));
    expect(held.some((p) => p.includes('node_modules'))).toBe(false);
    expect(held.some((p) => p.includes('/a/b/c/d/'))).toBe(false);
  });

  it('holds the home folder’s start-up files only where the grant holds the home folder', () => {
    const home = tempDir('home-');
    fs.writeFileSync(path.join(home, '.bashrc'), '');
    fs.mkdirSync(path.join(home, '.local', 'bin'), { recursive: true });
    fs.mkdirSync(path.join(home, 'project'));
    expect(protectedPaths({ writableRoots: [home], home })).toEqual(expect.arrayContaining([path.join(home, '.bashrc'), path.join(home, '.local/bin')]));
    expect(protectedPaths({ writableRoots: [path.join(home, 'project')], home })).toEqual([]);
  });

  it('holds a .git file (it names the git dir, and so the hooks) and the folder core.hooksPath names', () => {
    const root = tempDir('grant-');
    const worktree = path.join(root, 'wt');
    fs.mkdirSync(worktree);
    fs.writeFileSync(path.join(worktree, '.git'), 'gitdir: /elsewhere\n');
    const hooked = repo(path.join(root, 'hooked'));
    fs.mkdirSync(path.join(hooked, '.husky-hooks'));
    execFileSync('git', ['-C', hooked, 'config', 'core.hooksPath', '.husky-hooks']);
    const held = protectedPaths({ writableRoots: [root], home: '/nonexistent-home' });
    expect(held).toContain(path.join(worktree, '.git'));
    expect(held).toContain(path.join(hooked, '.husky-hooks'));
    expect(configuredHooksPath(hooked)).toBe(path.join(hooked, '.husky-hooks'));
  });
});

describe('holdMissing and releasePlaceholders', () => {
  it('a release that must wait keeps its process alive until it is done (Node ended such a process with code 13, mid-start)', () => {
    const dir = tempDir('release-');
    const fixture = path.join(import.meta.dirname, '../../../fixtures/release-awaited.ts');
    const out = execFileSync(process.execPath, ['--import', 'tsx', fixture, dir], { encoding: 'utf8', timeout: 60_000 });
    expect(out).toBe('released\n');
    expect(fs.existsSync(path.join(dir, '.vscode'))).toBe(false);
  });

  it('makes an empty placeholder for each missing protected name (a folder for folder names), and removes each once no sandbox holds it', async () => {
    const root = repo(tempDir('grant-'));
    fs.rmSync(path.join(root, '.git', 'info'), { recursive: true, force: true });
    fs.writeFileSync(path.join(root, '.mcp.json'), '{"mine":true}');
    const made = holdMissing({ writableRoots: [root], home: '/nonexistent-home' });
    const at = (name: string) => path.join(root, name);
    const paths = made.map((placeholder) => placeholder.path);
    expect(paths).toEqual(expect.arrayContaining([at('.vscode'), at('.claude'), at('.gitmodules'), at('.npmrc'), at('.git/info')]));
    expect(fs.statSync(at('.vscode')).isDirectory()).toBe(true);
    expect(fs.statSync(at('.gitmodules')).size).toBe(0);
    // What exists is the person's: never replaced, never listed to be removed.
    expect(paths).not.toContain(at('.mcp.json'));
    await releasePlaceholders(made);
    for (const p of paths) expect(fs.existsSync(p), p).toBe(false);
    expect(fs.readFileSync(at('.mcp.json'), 'utf8')).toBe('{"mine":true}');
  });

  it('leaves what the person wrote into a placeholder meanwhile, and what replaced it', async () => {
    const root = tempDir('grant-');
    fs.mkdirSync(path.join(root, '.git'));
    const made = holdMissing({ writableRoots: [root], home: '/nonexistent-home' });
    fs.writeFileSync(path.join(root, '.gitmodules'), '[submodule "lib"]\n');
    fs.writeFileSync(path.join(root, '.vscode', 'settings.json'), '{}');
    fs.rmSync(path.join(root, '.npmrc'));
    fs.writeFileSync(path.join(root, '.npmrc'), '');
    await releasePlaceholders(made);
    expect(fs.readFileSync(path.join(root, '.gitmodules'), 'utf8')).toBe('[submodule "lib"]\n');
    expect(fs.existsSync(path.join(root, '.vscode', 'settings.json'))).toBe(true);
    // Another file (another inode) at the name is not the placeholder.
    expect(fs.existsSync(path.join(root, '.npmrc'))).toBe(true);
    expect(fs.existsSync(path.join(root, '.claude'))).toBe(false);
  });

  it('holds a plain granted folder too (not a repository), but not a plain folder below it', () => {
    const root = tempDir('plain-');
    fs.mkdirSync(path.join(root, 'site'));
    const made = holdMissing({ writableRoots: [root], home: '/nonexistent-home' }).map((placeholder) => placeholder.path);
    expect(made).toEqual(expect.arrayContaining([path.join(root, '.vscode'), path.join(root, '.mcp.json')]));
    // Inside a missing .git nothing is made: a plain folder stays one a server may `git init`.
    expect(made.some((p) => /\/\.git(\/|$)/.test(p))).toBe(false);
    expect(fs.readdirSync(path.join(root, 'site'))).toEqual([]);
  });

  it('makes nothing where its existence would change what runs (bash start-up files), nor inside a missing .git', () => {
    const home = tempDir('home-');
    fs.writeFileSync(path.join(home, '.profile'), '# mine\n');
    const made = holdMissing({ writableRoots: [home], home }).map((placeholder) => placeholder.path);
    expect(made).not.toContain(path.join(home, '.bash_login'));
    expect(made).not.toContain(path.join(home, '.bash_profile'));
    expect(made.some((p) => /\/\.git(\/|$)/.test(p))).toBe(false);
    expect(made).toContain(path.join(home, '.zshenv'));
  });

  it('never follows a symlink where a name is missing behind it', () => {
    const root = tempDir('grant-');
    const elsewhere = tempDir('elsewhere-');
    fs.symlinkSync(elsewhere, path.join(root, '.config'));
    const made = holdMissing({ writableRoots: [root], home: root }).map((placeholder) => placeholder.path);
    expect(made.some((p) => p.startsWith(path.join(root, '.config')))).toBe(false);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });
});

describe('protectRoots (the one list, at start and for each live change)', () => {
  it('holds the placeholders it makes, keeps holding an earlier one whole on the next change, honours a grant’s choice, and forgets a read-only grant', async () => {
    const root = repo(tempDir('grant-'));
    fs.rmSync(path.join(root, '.git', 'info'), { recursive: true, force: true });
    const first = protectRoots([{ path: root, mode: 'read-write', writableByChoice: ['.vscode'] }], '/nonexistent-home');
    const at = (name: string) => path.join(root, name);
    // The deeper name's placeholder (.git/info for .git/info/attributes) is itself bound.
    expect(first.paths).toEqual(expect.arrayContaining([at('.git/info'), at('.claude'), at('.mcp.json')]));
    // The chosen name is neither held nor bound.
    expect(fs.existsSync(at('.vscode'))).toBe(false);
    expect(first.paths).not.toContain(at('.vscode'));
    // A live change with the same roots: nothing new made, .git/info still held whole, not filled.
    const again = protectRoots([{ path: root, mode: 'read-write', writableByChoice: ['.vscode'] }], '/nonexistent-home', first.made);
    expect(again.made).toEqual([]);
    expect(again.paths).toContain(at('.git/info'));
    expect(fs.readdirSync(at('.git/info'))).toEqual([]);
    // Read-only now: nothing of it is bound (nothing there is writable).
    expect(protectRoots([{ path: root, mode: 'read-only' }], '/nonexistent-home', first.made).paths).toEqual([]);
    await releasePlaceholders(first.made);
    expect(fs.existsSync(at('.git/info'))).toBe(false);
  });
});
