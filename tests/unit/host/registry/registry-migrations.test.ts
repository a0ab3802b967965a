// Each schema step keeps every root, server and grant; a grant never widens on the way.
import { describe, expect, it } from 'vitest';
import { migrateRegistry } from '../../../../electron/host/registry/registry-migrations.js';
import { parseRegistry } from '../../../../electron/host/registry/registry-store.js';
import { SCHEMA_VERSION } from '../../../../shared/registry-schema.js';

const v1 = {
  schemaVersion: 1,
  roots: [
    { id: 'r1', path: '/p', canonicalPath: '/p', name: 'p', addedAt: '2026-01-01T00:00:00.000Z' },
    { id: 'r2', path: '/q', canonicalPath: '/q', name: 'q', addedAt: '2026-01-01T00:00:00.000Z' },
  ],
  servers: [
    { id: 's1', name: 'fs', transport: { type: 'stdio', command: 'node', args: [], env: {} }, enabled: true, sharing: false, addedAt: 't' },
    { id: 's2', name: 'web', transport: { type: 'http', url: 'https://example.test/mcp', headers: {} }, enabled: false, sharing: true, addedAt: 't' },
  ],
  grants: { s1: ['r2', 'r1'], s2: [] },
  settings: { locale: 'de', theme: 'dark' },
};

describe('registry migrations', () => {
  it('1 -> 2: every grant becomes read-write in its order; servers are sandboxed, networked and ask for folders', () => {
    const { registry, migratedFrom } = parseRegistry(JSON.stringify(v1));
    expect(migratedFrom).toBe(1);
    expect(registry.schemaVersion).toBe(SCHEMA_VERSION);
    expect(registry.grants).toEqual({ s1: { r2: 'read-write', r1: 'read-write' }, s2: {} });
    expect(Object.keys(registry.grants.s1 ?? {})).toEqual(['r2', 'r1']);
    expect(registry.servers.map(({ sandbox, network, askForFolders, sharing, enabled }) => ({ sandbox, network, askForFolders, sharing, enabled }))).toEqual([
      { sandbox: true, network: true, askForFolders: true, sharing: false, enabled: true },
      { sandbox: true, network: true, askForFolders: true, sharing: true, enabled: false },
    ]);
    expect(registry.roots).toEqual(v1.roots);
    expect(registry.settings).toEqual(v1.settings);
  });

  it('0 -> 2: a hand-written file without schemaVersion comes through both steps', () => {
    const { schemaVersion: _drop, settings: _settings, ...v0 } = v1;
    const { registry, migratedFrom } = parseRegistry(JSON.stringify(v0));
    expect(migratedFrom).toBe(0);
    expect(registry.grants.s1).toEqual({ r2: 'read-write', r1: 'read-write' });
  });

  it('refuses reserved names as ids rather than let them reach an object key', () => {
    const hostile = { ...v1, grants: { s1: ['__proto__'] } };
    expect(() => parseRegistry(JSON.stringify(hostile))).toThrow(/schema violation/);
  });

  it('never downgrades a file from a newer version', () => {
    expect(() => migrateRegistry({ ...v1, schemaVersion: SCHEMA_VERSION + 1 })).toThrow(/newer version/);
  });
});
