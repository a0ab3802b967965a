import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asdfOfShim, linkHomeFiles, pyenvRootOf, shimNeeds, voltaHomeOf } from '../../../../electron/host/sandbox/version-manager-shims.js';
import { makeAsdf, makeVolta } from '../../../fixtures/version-managers.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

const realHome = process.env.HOME;
afterEach(() => {
  process.env.HOME = realHome;
  removeTempDirs();
});

/** A HOME of its own: asdf's global version file is read from it. */
function fakeHome(): string {
  const home = tempDir('vm-home-');
  process.env.HOME = home;
  return home;
}

describe('version manager shims', () => {
  it("binds what a pyenv shim execs: pyenv's code, its version file and the versions, nothing else of the root", () => {
    const root = path.join(tempDir('pyenv-'), '.pyenv');
    for (const dir of ['shims', 'libexec', 'versions/3.12.1/bin', 'cache']) fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, 'libexec', 'pyenv'), '#!/usr/bin/env bash\n');
    fs.writeFileSync(path.join(root, 'version'), '3.12.1\n');
    fs.writeFileSync(path.join(root, 'shims', 'python3'), '#!/usr/bin/env bash\n');
    expect(pyenvRootOf(path.join(root, 'shims', 'python3'))).toBe(root);
    expect(shimNeeds(path.join(root, 'shims', 'python3'), '')).toEqual({
      manager: 'pyenv',
      root,
      paths: [path.join(root, 'libexec'), path.join(root, 'version'), path.join(root, 'versions')],
      programs: [],
      env: {},
      homeFiles: [],
    });
  });

  it("binds what a bash asdf shim execs: asdf's bin and lib, installs, plugins and ~/.tool-versions; not downloads, not HOME", () => {
    const home = fakeHome();
    const { shim } = makeAsdf(home, 'bash');
    const root = path.join(home, '.asdf');
    expect(asdfOfShim(shim)).toBe(path.join(root, 'bin', 'asdf'));
    expect(shimNeeds(shim, '/usr/bin')).toEqual({
      manager: 'asdf',
      root,
      paths: ['bin', 'lib', 'installs', 'plugins'].map((entry) => path.join(root, entry)).concat(path.join(home, '.tool-versions')),
      programs: [],
      env: { ASDF_DATA_DIR: root },
      homeFiles: [path.join(home, '.tool-versions')],
    });
  });

  it('binds the Go asdf found on PATH as a program, the data folder as for the bash one', () => {
    const home = fakeHome();
    const { shim, bin } = makeAsdf(home, 'go');
    fs.rmSync(path.join(home, '.tool-versions'));
    expect(asdfOfShim(shim)).toBe('asdf');
    const needs = shimNeeds(shim, `/usr/bin:${bin}`);
    expect(needs).toMatchObject({ manager: 'asdf', programs: [path.join(bin as string, 'asdf')], homeFiles: [] });
    expect(needs?.paths).toEqual([path.join(home, '.asdf', 'installs'), path.join(home, '.asdf', 'plugins')]);
    // Not on PATH: nothing to bind for it (the shim then fails inside as it would outside).
    expect(shimNeeds(shim, '/usr/bin')?.programs).toEqual([]);
  });

  it("binds a volta shim's tools and layout file and names its home; not its cache, log or tmp", () => {
    const home = fakeHome();
    const { shim } = makeVolta(home);
    const root = path.join(home, '.volta');
    fs.writeFileSync(path.join(root, 'hooks.json'), '{}');
    expect(voltaHomeOf(shim)).toBe(root);
    expect(shimNeeds(shim, '')).toEqual({
      manager: 'volta',
      root,
      paths: [path.join(root, 'tools'), path.join(root, 'hooks.json'), path.join(root, 'layout.v4')],
      programs: [],
      env: { VOLTA_HOME: root },
      homeFiles: [],
    });
    // volta-shim itself, and a hard-linked copy (older installs), are shims too.
    expect(voltaHomeOf(path.join(root, 'bin', 'volta-shim'))).toBe(root);
    fs.rmSync(path.join(root, 'bin', 'npx'));
    fs.linkSync(path.join(root, 'bin', 'volta-shim'), path.join(root, 'bin', 'npx'));
    expect(voltaHomeOf(path.join(root, 'bin', 'npx'))).toBe(root);
  });

  it('leaves anything else alone: folders named shims or bin that hold no known shim, a plain program', () => {
    const other = tempDir('not-a-shim-');
    fs.mkdirSync(path.join(other, 'shims'));
    fs.writeFileSync(path.join(other, 'shims', 'node'), '#!/bin/sh\nexec /usr/bin/node "$@"\n');
    fs.writeFileSync(path.join(other, 'shims', 'python3'), '#!/usr/bin/env bash\n');
    expect(shimNeeds(path.join(other, 'shims', 'python3'), '')).toBeUndefined();
    expect(shimNeeds(path.join(other, 'shims', 'node'), '')).toBeUndefined();
    fs.mkdirSync(path.join(other, 'bin'));
    fs.mkdirSync(path.join(other, 'tools'));
    fs.writeFileSync(path.join(other, 'bin', 'node'), '#!/bin/sh\n');
    expect(shimNeeds(path.join(other, 'bin', 'node'), '')).toBeUndefined();
    expect(shimNeeds('/usr/bin/python3', process.env.PATH)).toBeUndefined();
  });

  it("links a HOME file from the private HOME, replaces only its own stale link, keeps the server's own file", () => {
    const home = tempDir('private-home-');
    const real = path.join(tempDir('real-home-'), '.tool-versions');
    fs.writeFileSync(real, 'nodejs 20.0.0\n');
    linkHomeFiles(home, [real]);
    expect(fs.readlinkSync(path.join(home, '.tool-versions'))).toBe(real);
    // Kept in a dotfiles folder under another name: linked by HOME's name, to the real file.
    const moved = path.join(tempDir('dotfiles-'), 'tool-versions');
    fs.writeFileSync(moved, 'nodejs 22.0.0\n');
    fs.rmSync(real);
    fs.symlinkSync(moved, real);
    linkHomeFiles(home, [real]);
    expect(fs.readlinkSync(path.join(home, '.tool-versions'))).toBe(moved);
    fs.rmSync(real);
    fs.writeFileSync(real, 'nodejs 20.0.0\n');
    fs.rmSync(path.join(home, '.tool-versions'));
    fs.writeFileSync(path.join(home, '.tool-versions'), 'nodejs 18.0.0\n');
    linkHomeFiles(home, [real]);
    expect(fs.readFileSync(path.join(home, '.tool-versions'), 'utf8')).toBe('nodejs 18.0.0\n');
    expect(fs.readFileSync(real, 'utf8')).toBe('nodejs 20.0.0\n');
  });
});
