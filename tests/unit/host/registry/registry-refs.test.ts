import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRoot, findServerRef } from '../../../../electron/host/registry/registry-refs.js';
import type { Registry } from '../../../../shared/domain.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';
import { removeTempDirs, tempDir } from '../../../support/temp-dirs.js';

afterEach(removeTempDirs);

function registryWith(folders: Record<string, string>): Registry {
  const registry = emptyRegistry();
  for (const [id, folder] of Object.entries(folders)) {
    registry.roots.push({ id, path: folder, canonicalPath: folder, name: path.basename(folder), addedAt: new Date(0).toISOString() });
  }
  registry.servers.push(
    { id: 'aaaa1111-s', name: 'filesystem', transport: { type: 'stdio', command: 'x', args: [], env: {} }, enabled: true, sharing: true, sandbox: true, network: true, askForFolders: true, addedAt: '' },
    { id: 'aaaa2222-s', name: 'github', transport: { type: 'stdio', command: 'y', args: [], env: {} }, enabled: true, sharing: true, sandbox: true, network: true, askForFolders: true, addedAt: '' },
  );
  return registry;
}

describe('naming a root', () => {
  it('by id, short id, name, label, absolute, relative and ~ path, and file:// URI', () => {
    const base = tempDir('refs-');
    const a = path.join(base, 'a', 'src');
    const b = path.join(base, 'b', 'src');
    fs.mkdirSync(a, { recursive: true });
    fs.mkdirSync(b, { recursive: true });
    const registry = registryWith({ '3f2a9c11-r': a, '9be21000-r': b });
    const here = { cwd: path.join(base, 'a'), home: base };
    const id = (ref: string) => findRoot(registry, ref, here).id;
    expect(id('3f2a9c11-r')).toBe('3f2a9c11-r');
    expect(id('9be2')).toBe('9be21000-r');
    expect(id('a/src')).toBe('3f2a9c11-r');
    expect(id(b)).toBe('9be21000-r');
    expect(id('./src')).toBe('3f2a9c11-r');
    expect(id('../b/src')).toBe('9be21000-r');
    expect(id('~/b/src')).toBe('9be21000-r');
    expect(id(`file://${b}`)).toBe('9be21000-r');
    // A folder under the current one, by its bare name, when no root is called that.
    fs.mkdirSync(path.join(base, 'a', 'docs'));
    const withDocs = registryWith({ docs: path.join(base, 'a', 'docs') });
    withDocs.roots[0]!.name = 'api-docs';
    expect(findRoot(withDocs, 'docs', here).id).toBe('docs');
  });

  it('lists every match with its short id when a name fits several', () => {
    const registry = registryWith({ '3f2a9c11-r': '/p/a/src', '9be21000-r': '/p/b/src' });
    expect(() => findRoot(registry, 'src', { cwd: '/', home: '/' })).toThrow(
      /"src" matches 2 roots; name one by its short id or path:\n {2}3f2a9c {2}a\/src {2}\/p\/a\/src\n {2}9be210 {2}b\/src {2}\/p\/b\/src/,
    );
  });

  it('says when nothing matches', () => {
    expect(() => findRoot(registryWith({}), 'nope', { cwd: '/', home: '/' })).toThrow(expect.objectContaining({ code: 'not-found', message: expect.stringContaining('No root matches "nope"') }));
  });
});

describe('naming a server', () => {
  it('by id, name or unique short id; an id prefix two share lists both', () => {
    const registry = registryWith({});
    expect(findServerRef(registry, 'github').id).toBe('aaaa2222-s');
    expect(findServerRef(registry, 'aaaa1').id).toBe('aaaa1111-s');
    expect(() => findServerRef(registry, 'aaaa')).toThrow(/"aaaa" matches 2 servers; name one by its short id:\n {2}aaaa11 {2}filesystem\n {2}aaaa22 {2}github/);
  });
});
