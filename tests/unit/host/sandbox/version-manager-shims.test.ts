import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pyenvRootOf, shimTargets } from '../../../../electron/host/sandbox/version-manager-shims.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => removeTempDirs());

describe('version manager shims', () => {
  it("binds what a pyenv shim execs: pyenv's code, its version file and the versions, nothing else of the root", () => {
    const root = path.join(tempDir('pyenv-'), '.pyenv');
    for (const dir of ['shims', 'libexec', 'versions/3.12.1/bin', 'cache']) fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, 'libexec', 'pyenv'), '#!/usr/bin/env bash\n');
    fs.writeFileSync(path.join(root, 'version'), '3.12.1\n');
    fs.writeFileSync(path.join(root, 'shims', 'python3'), '#!/usr/bin/env bash\n');
    expect(pyenvRootOf(path.join(root, 'shims', 'python3'))).toBe(root);
    expect(shimTargets(path.join(root, 'shims', 'python3'))).toEqual([path.join(root, 'libexec'), path.join(root, 'version'), path.join(root, 'versions')]);
  });

  it('leaves anything else alone: a folder named shims without pyenv beside it, a plain program', () => {
    const other = tempDir('not-pyenv-');
    fs.mkdirSync(path.join(other, 'shims'));
    expect(shimTargets(path.join(other, 'shims', 'python3'))).toEqual([]);
    expect(shimTargets('/usr/bin/python3')).toEqual([]);
  });
});
