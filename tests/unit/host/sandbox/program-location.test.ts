// Real folders in temp dirs, laid out like the installs a server's program comes from.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { locateProgram, scriptArgumentIndex } from '../../../../electron/host/sandbox/program-location.js';
import { SandboxSetupError } from '../../../../electron/host/sandbox/sandbox-types.js';
import { makeAsdf } from '../../../fixtures/version-managers.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

function write(file: string, content = '', mode = 0o644): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode });
  return file;
}

const node = process.execPath;

describe('locateProgram', () => {
  it('binds a script’s package root and the node_modules folders above it, and makes the script absolute', () => {
    const project = tempDir('prog-');
    write(path.join(project, 'package.json'), '{}');
    write(path.join(project, 'dist', 'index.js'));
    write(path.join(project, 'node_modules', 'dep', 'package.json'), '{}');
    const located = locateProgram({ command: node, args: ['dist/index.js', '--verbose'], cwd: project, pathEnv: process.env.PATH });
    expect(located.args).toEqual([path.join(project, 'dist', 'index.js'), '--verbose']);
    expect(located.paths).toContain(project);
    expect(located.paths).toContain(path.join(project, 'node_modules'));
  });

  it('follows a symlinked package (npm link, workspaces) to its real folder', () => {
    const project = tempDir('prog-');
    const linked = tempDir('linked-');
    write(path.join(project, 'package.json'), '{}');
    write(path.join(project, 'server.mjs'));
    write(path.join(linked, 'package.json'), '{"name":"@me/lib"}');
    fs.mkdirSync(path.join(project, 'node_modules', '@me'), { recursive: true });
    fs.symlinkSync(linked, path.join(project, 'node_modules', '@me', 'lib'));
    const located = locateProgram({ command: node, args: [path.join(project, 'server.mjs')], pathEnv: process.env.PATH });
    expect(located.paths).toContain(linked);
  });

  it('binds the node_modules folders a pnpm package resolves from', () => {
    const project = tempDir('prog-');
    const store = path.join(project, 'node_modules', '.pnpm', 'srv@1.0.0', 'node_modules');
    write(path.join(store, 'srv', 'package.json'), '{}');
    write(path.join(store, 'srv', 'index.js'));
    write(path.join(store, 'dep', 'package.json'), '{}');
    const located = locateProgram({ command: node, args: [path.join(store, 'srv', 'index.js')], pathEnv: process.env.PATH });
    expect(located.paths).toContain(store);
    expect(located.paths).toContain(path.join(project, 'node_modules'));
  });

  it('runs a shebang script by its path and binds its interpreter and package', () => {
    const pkg = tempDir('prog-');
    write(path.join(pkg, 'package.json'), '{}');
    const cli = write(path.join(pkg, 'bin', 'cli.js'), '#!/usr/bin/env node\n', 0o755);
    const located = locateProgram({ command: cli, args: [], pathEnv: process.env.PATH });
    expect(located.command).toBe(cli);
    expect(located.paths).toContain(pkg);
  });

  it('binds a Python venv as a whole when the command is its python (a symlink kept by name)', () => {
    const venv = tempDir('venv-');
    write(path.join(venv, 'pyvenv.cfg'), 'home = /usr/bin\n');
    fs.mkdirSync(path.join(venv, 'bin'));
    fs.symlinkSync(node, path.join(venv, 'bin', 'python'));
    const located = locateProgram({ command: path.join(venv, 'bin', 'python'), args: ['-m', 'server'], pathEnv: process.env.PATH });
    expect(located.command).toBe(path.join(venv, 'bin', 'python'));
    expect(located.paths).toContain(venv);
  });

  it('binds an install prefix (bin + lib, like an nvm version folder), but only the bin folder of ~/.local', () => {
    const home = tempDir('home-');
    vi.stubEnv('HOME', home);
    const prefix = path.join(home, '.nvm', 'versions', 'node', 'v22.0.0');
    const tool = write(path.join(prefix, 'bin', 'tool'), '', 0o755);
    fs.mkdirSync(path.join(prefix, 'lib'));
    expect(locateProgram({ command: tool, args: [], pathEnv: '' }).paths).toEqual([prefix]);

    const local = write(path.join(home, '.local', 'bin', 'other'), '', 0o755);
    fs.mkdirSync(path.join(home, '.local', 'lib'), { recursive: true });
    fs.mkdirSync(path.join(home, '.local', 'share', 'keyrings'), { recursive: true });
    expect(locateProgram({ command: local, args: [], pathEnv: '' }).paths).toEqual([path.dirname(local)]);
  });

  it('never binds HOME itself: a script saved straight into HOME is bound alone', () => {
    const home = tempDir('home-');
    vi.stubEnv('HOME', home);
    write(path.join(home, 'package.json'), '{}');
    const script = write(path.join(home, 'server.js'));
    fs.mkdirSync(path.join(home, '.ssh'));
    const located = locateProgram({ command: node, args: [script], pathEnv: process.env.PATH });
    expect(located.paths).toContain(script);
    expect(located.paths).not.toContain(home);
  });

  it('keeps the links on the way to the command, its shebang’s interpreter and its script, by the names given', () => {
    const base = tempDir('linked-');
    write(path.join(base, 'opt', 'pkg', 'package.json'), '{}');
    const runtime = path.join(base, 'runtime', 'bin');
    fs.mkdirSync(runtime, { recursive: true });
    fs.symlinkSync(node, path.join(runtime, 'node'));
    fs.mkdirSync(path.join(base, 'tools'));
    fs.symlinkSync('../opt/pkg', path.join(base, 'tools', 'link'));
    fs.symlinkSync(runtime, path.join(base, 'tools', 'nodebin'));
    write(path.join(base, 'opt', 'pkg', 'cli.mjs'), `#!${path.join(base, 'tools', 'nodebin', 'node')}\n`, 0o755);

    const byScript = locateProgram({ command: node, args: [path.join(base, 'tools', 'link', 'cli.mjs')], pathEnv: process.env.PATH });
    expect(byScript.args).toEqual([path.join(base, 'tools', 'link', 'cli.mjs')]);
    expect(byScript.links).toContainEqual({ path: path.join(base, 'tools', 'link'), target: '../opt/pkg' });
    expect(byScript.paths).toContain(path.join(base, 'opt', 'pkg'));

    const byShebang = locateProgram({ command: path.join(base, 'tools', 'link', 'cli.mjs'), args: [], pathEnv: process.env.PATH });
    expect(byShebang.command).toBe(path.join(base, 'tools', 'link', 'cli.mjs'));
    expect(byShebang.links).toEqual(
      expect.arrayContaining([
        { path: path.join(base, 'tools', 'link'), target: '../opt/pkg' },
        { path: path.join(base, 'tools', 'nodebin'), target: runtime },
        { path: path.join(runtime, 'node'), target: node },
      ]),
    );
    expect(byShebang.paths).toEqual(expect.arrayContaining([path.join(base, 'opt', 'pkg'), runtime]));
  });

  it('finds the command on the PATH it is given, and names one that is missing', () => {
    const bin = tempDir('bin-');
    const tool = write(path.join(bin, 'my-server'), '', 0o755);
    expect(locateProgram({ command: 'my-server', args: [], pathEnv: bin }).command).toBe(tool);
    expect(() => locateProgram({ command: 'no-such-server', args: [], pathEnv: bin })).toThrow(SandboxSetupError);
    try {
      locateProgram({ command: 'no-such-server', args: [], pathEnv: bin });
    } catch (error) {
      expect(error).toMatchObject({ code: 'command-not-found' });
    }
  });
});

describe('scriptArgumentIndex', () => {
  it.each([
    ['node', ['dist/index.js'], 0],
    ['node', ['--import', 'tsx', 'src/main.ts', 'x'], 2],
    ['node', ['-e', 'code'], undefined],
    ['python3.12', ['-u', 'server.py'], 1],
    ['python3', ['-m', 'server'], undefined],
    ['deno', ['run', '--allow-read', 'main.ts'], 2],
    ['server-filesystem', ['/a'], undefined],
  ])('%s %j → %s', (command, args, expected) => {
    expect(scriptArgumentIndex(command, args)).toBe(expected);
  });
});

describe('locateProgram for a program the server can write (its own checkout in a read-write grant)', () => {
  /** A checkout inside a grant, with a link planted in node_modules to a project outside it. */
  function plantedCheckout() {
    const grant = tempDir('grant-');
    const other = tempDir('other-project-');
    write(path.join(other, 'package.json'), '{"name":"other"}');
    write(path.join(grant, 'package.json'), '{}');
    write(path.join(grant, 'server.mjs'));
    fs.mkdirSync(path.join(grant, 'node_modules'), { recursive: true });
    fs.symlinkSync(other, path.join(grant, 'node_modules', 'planted'));
    const inGrant = (p: string) => p === grant || p.startsWith(`${grant}/`);
    return { grant, other, options: { serverWritable: inGrant, visibleInside: inGrant } };
  }

  it('binds nothing a planted node_modules link names outside the grant, and says what it refused', () => {
    const { grant, other, options } = plantedCheckout();
    const located = locateProgram({ command: node, args: [path.join(grant, 'server.mjs')], pathEnv: process.env.PATH, ...options });
    expect(located.paths.some((p) => p.startsWith(other))).toBe(false);
    expect(located.refused).toContain(other);
  });

  it('still follows the same link when the program is not the server’s to write (an install of the person’s)', () => {
    const { grant, other } = plantedCheckout();
    const located = locateProgram({ command: node, args: [path.join(grant, 'server.mjs')], pathEnv: process.env.PATH });
    expect(located.paths).toContain(other);
    expect(located.refused).toEqual([]);
  });

  it('binds no interpreter a writable script’s shebang names outside the grant', () => {
    const { grant, options } = plantedCheckout();
    const elsewhere = tempDir('interp-');
    const interpreter = write(path.join(elsewhere, 'bin', 'evil'), '#!/bin/sh\n', 0o755);
    const script = write(path.join(grant, 'bin', 'tool'), `#!${interpreter}\n`, 0o755);
    const located = locateProgram({ command: script, args: [], pathEnv: process.env.PATH, ...options });
    expect(located.paths.some((p) => p.startsWith(elsewhere))).toBe(false);
    expect(located.refused.some((p) => p.startsWith(elsewhere))).toBe(true);
  });

  it('refuses a script reached through a link in the grant, even when the path as named lies outside it', () => {
    const { grant, options } = plantedCheckout();
    const elsewhere = tempDir('elsewhere-');
    write(path.join(elsewhere, 'package.json'), '{}');
    write(path.join(elsewhere, 'real.mjs'));
    const entry = tempDir('entry-');
    // entry/in -> grant/hop (the person's link, outside the grant) and grant/hop -> elsewhere (the server's).
    fs.symlinkSync(path.join(grant, 'hop'), path.join(entry, 'in'));
    fs.symlinkSync(elsewhere, path.join(grant, 'hop'));
    const located = locateProgram({ command: node, args: [path.join(entry, 'in', 'real.mjs')], pathEnv: process.env.PATH, ...options });
    expect(located.paths.some((p) => p.startsWith(elsewhere))).toBe(false);
    expect(located.refused).toContain(path.join(elsewhere, 'real.mjs'));
  });

  it('refuses a script argument that is a link from the grant to a file outside it', () => {
    const { grant, options } = plantedCheckout();
    const elsewhere = tempDir('elsewhere-');
    const target = write(path.join(elsewhere, 'real.mjs'));
    fs.symlinkSync(target, path.join(grant, 'linked.mjs'));
    const located = locateProgram({ command: node, args: [path.join(grant, 'linked.mjs')], pathEnv: process.env.PATH, ...options });
    expect(located.paths.some((p) => p.startsWith(elsewhere))).toBe(false);
    expect(located.refused).toContain(target);
  });

  it("binds an asdf shim's installs and the global version file alone, never HOME; a shim the server can write names nothing", () => {
    const home = tempDir('asdf-home-');
    vi.stubEnv('HOME', home);
    const { shim, node: installed } = makeAsdf(home, 'bash');
    const located = locateProgram({ command: shim, args: [], pathEnv: '/usr/bin' });
    expect(located.paths.filter((p) => p.startsWith(home))).toEqual(['bin', 'installs', 'lib', 'plugins', 'shims'].map((entry) => path.join(home, '.asdf', entry)).concat(path.join(home, '.tool-versions')).sort());
    expect(located.paths).not.toContain(home);
    expect(located.versionManagers).toMatchObject([{ manager: 'asdf', env: { ASDF_DATA_DIR: path.join(home, '.asdf') }, homeFiles: [path.join(home, '.tool-versions')] }]);
    expect(installed.startsWith(path.join(home, '.asdf', 'installs'))).toBe(true);
    const planted = locateProgram({ command: shim, args: [], pathEnv: '/usr/bin', serverWritable: (p) => p.startsWith(path.join(home, '.asdf')) });
    expect(planted.paths.filter((p) => p.startsWith(home))).toEqual([]);
    expect(planted.versionManagers).toEqual([]);
    expect(planted.refused).toContain(shim);
  });
});
