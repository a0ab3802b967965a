import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { symlinkHops } from '../../../../electron/host/sandbox/symlink-hops.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(removeTempDirs);

describe('symlinkHops', () => {
  it('is empty for a path with no link on the way', () => {
    const base = tempDir('hops-');
    fs.writeFileSync(path.join(base, 'file'), '');
    expect(symlinkHops(path.join(base, 'file'))).toEqual([]);
  });

  it('lists each link met, where it physically lies, its text as written, the last component included', () => {
    const base = tempDir('hops-');
    fs.mkdirSync(path.join(base, 'real', 'pkg'), { recursive: true });
    fs.writeFileSync(path.join(base, 'real', 'pkg', 'index.js'), '');
    fs.symlinkSync('index.js', path.join(base, 'real', 'pkg', 'main.js'));
    fs.mkdirSync(path.join(base, 'y', 'z'), { recursive: true });
    // A relative link inside a linked folder: its `..` is taken from where it physically lies.
    fs.symlinkSync('../../real', path.join(base, 'y', 'z', 'inner'));
    fs.symlinkSync(path.join(base, 'y', 'z'), path.join(base, 'outer'));
    expect(symlinkHops(path.join(base, 'outer', 'inner', 'pkg', 'main.js'))).toEqual([
      { path: path.join(base, 'outer'), target: path.join(base, 'y', 'z') },
      { path: path.join(base, 'y', 'z', 'inner'), target: '../../real' },
      { path: path.join(base, 'real', 'pkg', 'main.js'), target: 'index.js' },
    ]);
  });

  it('keeps what it met before a missing component, and stops on a loop', () => {
    const base = tempDir('hops-');
    fs.symlinkSync(path.join(base, 'nowhere'), path.join(base, 'dangling'));
    expect(symlinkHops(path.join(base, 'dangling', 'x'))).toEqual([{ path: path.join(base, 'dangling'), target: path.join(base, 'nowhere') }]);
    fs.symlinkSync('b', path.join(base, 'a'));
    fs.symlinkSync('a', path.join(base, 'b'));
    expect(symlinkHops(path.join(base, 'a')).length).toBeLessThanOrEqual(40);
  });
});
