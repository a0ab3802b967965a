import { describe, expect, it } from 'vitest';
import { computeExposure, sameExposure } from '../../../../electron/host/access/exposure.js';
import type { Registry, RootAccess } from '../../../../shared/domain.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';

const ok: RootAccess = { state: 'ok', checkedAt: 0 };
const missing: RootAccess = { state: 'missing', checkedAt: 0 };

function registry(overrides: Partial<Registry['servers'][number]> = {}): Registry {
  return {
    ...emptyRegistry(),
    roots: ['a', 'b', 'c'].map((id) => ({ id, path: `/${id}`, canonicalPath: `/${id}`, name: id.toUpperCase(), addedAt: '' })),
    servers: [
      { id: 's', name: 's', transport: { type: 'stdio', command: 'x', args: [], env: {} }, enabled: true, sharing: true, sandbox: true, network: true, askForFolders: true, addedAt: '', ...overrides },
    ],
    grants: { s: { a: 'read-write', b: 'read-only' } },
  };
}

describe('computeExposure', () => {
  it('is granted AND accessible', () => {
    const exposure = computeExposure(registry(), (id) => (id === 'b' ? missing : ok)).get('s');
    expect(exposure?.roots).toEqual([{ uri: 'file:///a', name: 'A' }]);
    expect(exposure?.rootIds).toEqual(['a']);
  });

  it('is nothing while sharing is off or the server is disabled', () => {
    expect(computeExposure(registry({ sharing: false }), () => ok).get('s')?.roots).toEqual([]);
    expect(computeExposure(registry({ enabled: false }), () => ok).get('s')?.roots).toEqual([]);
  });

  it('compares by uri and name, so a rename is a change', () => {
    const before = computeExposure(registry(), () => ok).get('s');
    const renamed = registry();
    renamed.roots = renamed.roots.map((root) => (root.id === 'a' ? { ...root, name: 'Renamed' } : root));
    const after = computeExposure(renamed, () => ok).get('s');
    expect(after && sameExposure(before, after)).toBe(false);
    const again = computeExposure(registry(), () => ok).get('s');
    expect(again && sameExposure(before, again)).toBe(true);
  });
});

describe('computeExposure with a path mapping', () => {
  it('tells the server the mapped URI, longest host path first, and keeps the host path for mounts', () => {
    const mapped = registry({ pathMap: [{ hostPath: '/', serverPath: '/host' }, { hostPath: '/a', serverPath: '/projects/a' }] });
    const exposure = computeExposure(mapped, () => ok).get('s');
    expect(exposure?.uris).toEqual(['file:///projects/a', 'file:///host/b']);
    expect(exposure?.folders.map((folder) => [folder.path, folder.serverPath])).toEqual([['/a', '/projects/a'], ['/b', '/host/b']]);
    // A new mapping is a change of what the server is told.
    expect(exposure && sameExposure(computeExposure(registry(), () => ok).get('s'), exposure)).toBe(false);
  });
});
