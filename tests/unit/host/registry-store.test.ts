import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_FILE, LAST_GOOD_FILE, RegistryStore } from '../../../electron/host/registry-store.js';
import { emptyRegistry, SCHEMA_VERSION } from '../../../shared/registry-schema.js';
import type { Registry } from '../../../shared/domain.js';
import { removeTempDirs, tempDir, waitFor } from '../../support/index.js';

afterEach(removeTempDirs);

function sample(): Registry {
  return {
    ...emptyRegistry(),
    roots: [{ id: 'r1', path: '/p', canonicalPath: '/p', name: 'p', addedAt: '2026-01-01T00:00:00.000Z' }],
    servers: [
      {
        id: 's1',
        name: 'fs',
        transport: { type: 'stdio', command: 'node', args: [], env: { TOKEN: 'secret' } },
        enabled: true,
        sharing: true,
        sandbox: true,
        network: true,
        askForFolders: true,
        addedAt: '2026-01-01T00:00:00.000Z',
      },
    ],
    grants: { s1: { r1: 'read-write' } },
  };
}

describe('RegistryStore', () => {
  it('creates an empty registry on first open and round-trips a write', () => {
    const dir = tempDir();
    const store = new RegistryStore(dir);
    expect(store.open()).toEqual({ registry: emptyRegistry(), notices: [] });
    store.write(sample());
    const again = new RegistryStore(dir).open();
    expect(again.registry).toEqual(sample());
    expect(fs.statSync(path.join(dir, CONFIG_FILE)).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['corrupt JSON', '{"roots": [', /not valid JSON/],
    ['an empty file', '', /not valid JSON/],
    ['a schema violation', JSON.stringify({ ...sample(), roots: [{ id: 1 }] }), /schema violation/],
    ['a truncated file', JSON.stringify(sample(), null, 1).slice(0, 200), /not valid JSON/],
  ])('keeps %s as a dated backup and restores the last good copy', (_what, content, why) => {
    const dir = tempDir();
    const first = new RegistryStore(dir);
    first.open();
    first.write(sample());
    new RegistryStore(dir).open(); // a clean start refreshes the last good copy
    fs.writeFileSync(path.join(dir, CONFIG_FILE), content);

    const { registry, notices } = new RegistryStore(dir).open();
    expect(registry).toEqual(sample());
    expect(notices[0]).toMatchObject({ code: 'store-recovered', level: 'warning' });
    expect(notices[0]?.message).toMatch(why);
    const backups = fs.readdirSync(dir).filter((name) => name.startsWith('config.corrupt-'));
    expect(backups).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, backups[0] as string), 'utf8')).toBe(content);
    // And the file on disk is whole again.
    expect(JSON.parse(fs.readFileSync(path.join(dir, CONFIG_FILE), 'utf8')).roots).toHaveLength(1);
  });

  it('starts empty, says so, and keeps the damaged file when there is no good copy', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, CONFIG_FILE), 'garbage');
    const { registry, notices } = new RegistryStore(dir).open();
    expect(registry).toEqual(emptyRegistry());
    expect(notices[0]).toMatchObject({ code: 'store-reset', level: 'error' });
    expect(fs.readdirSync(dir).some((name) => name.startsWith('config.corrupt-'))).toBe(true);
    expect(fs.existsSync(path.join(dir, LAST_GOOD_FILE))).toBe(true);
  });

  it('migrates a file without schemaVersion and keeps every root, server and grant', () => {
    const dir = tempDir();
    const { schemaVersion: _drop, settings: _settings, ...old } = sample();
    fs.writeFileSync(path.join(dir, CONFIG_FILE), JSON.stringify(old));
    const { registry, notices } = new RegistryStore(dir).open();
    expect(registry).toEqual({ ...sample(), schemaVersion: SCHEMA_VERSION });
    expect(notices[0]).toMatchObject({ code: 'store-migrated' });
  });

  it('never overwrites a file written by a newer version', () => {
    const dir = tempDir();
    const newer = JSON.stringify({ ...sample(), schemaVersion: SCHEMA_VERSION + 1 });
    fs.writeFileSync(path.join(dir, CONFIG_FILE), newer);
    const store = new RegistryStore(dir);
    const { notices } = store.open();
    expect(notices[0]).toMatchObject({ code: 'store-newer', level: 'error' });
    expect(() => store.write(sample())).toThrow(/newer version/);
    expect(fs.readFileSync(path.join(dir, CONFIG_FILE), 'utf8')).toBe(newer);
  });

  it('notices an edit by another process, but not its own writes', async () => {
    const dir = tempDir();
    const store = new RegistryStore(dir);
    store.open();
    const seen: Registry[] = [];
    store.on('external', (registry) => seen.push(registry));
    store.watch(5);
    store.write(sample());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([]);

    const other = new RegistryStore(dir);
    other.open();
    other.write({ ...sample(), grants: { s1: {} } });
    await waitFor(() => seen.length === 1, { what: 'external edit' });
    expect(seen[0]?.grants).toEqual({ s1: {} });
    store.unwatch();
  });

  it('ignores an invalid outside edit and says so', async () => {
    const dir = tempDir();
    const store = new RegistryStore(dir);
    store.open();
    const notices: string[] = [];
    store.on('notice', (notice) => notices.push(notice.code));
    store.watch(5);
    fs.writeFileSync(path.join(dir, CONFIG_FILE), '{"half": ');
    await waitFor(() => notices.includes('store-external-invalid'), { what: 'notice' });
    store.unwatch();
  });
});
