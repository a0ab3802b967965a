import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_FILE, LAST_GOOD_FILE, RegistryStore } from '../../../../electron/host/registry/registry-store.js';
import { emptyRegistry, SCHEMA_VERSION } from '../../../../shared/registry-schema.js';
import type { Registry } from '../../../../shared/domain.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

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
  it('refreshing the views never takes a newer file as seen: the next check still reads it', async () => {
    const dir = tempDir();
    const app = new RegistryStore(dir);
    app.open();
    const cli = new RegistryStore(dir);
    cli.open();
    const one = sample();
    await cli.write(one);
    const seen = app.check();
    expect(seen.kind).toBe('read');
    // Another process writes again before the app gets to refresh the views of what it saw.
    const two: Registry = { ...one, servers: [...one.servers, { ...one.servers[0]!, id: 's2', name: 'second' }] };
    await cli.write(two);
    app.refreshViews(one);
    const next = app.check();
    expect(next.kind).toBe('read');
    expect(next.kind === 'read' && next.registry.servers.map((server) => server.name)).toEqual(['fs', 'second']);
  });

  it('creates an empty registry on first open and round-trips a write', async () => {
    const dir = tempDir();
    const store = new RegistryStore(dir);
    expect(store.open()).toEqual({ registry: emptyRegistry(), notices: [] });
    await store.write(sample());
    const again = new RegistryStore(dir).open();
    expect(again.registry).toEqual(sample());
    expect(fs.statSync(path.join(dir, CONFIG_FILE)).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['corrupt JSON', '{"roots": [', /not valid JSON/],
    ['an empty file', '', /not valid JSON/],
    ['a schema violation', JSON.stringify({ ...sample(), roots: [{ id: 1 }] }), /schema violation/],
    ['a truncated file', JSON.stringify(sample(), null, 1).slice(0, 200), /not valid JSON/],
    ['a server limit out of its bounds', JSON.stringify({ ...sample(), servers: [{ ...sample().servers[0], limits: { tasks: 5 } }] }), /schema violation/],
  ])('keeps %s as a dated backup and restores the last good copy', async (_what, content, why) => {
    const dir = tempDir();
    const first = new RegistryStore(dir);
    first.open();
    await first.write(sample());
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

  it('starts empty, says so, and keeps the damaged file when there is no good copy', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, CONFIG_FILE), 'garbage');
    const { registry, notices } = new RegistryStore(dir).open();
    expect(registry).toEqual(emptyRegistry());
    expect(notices[0]).toMatchObject({ code: 'store-reset', level: 'error' });
    expect(fs.readdirSync(dir).some((name) => name.startsWith('config.corrupt-'))).toBe(true);
    expect(fs.existsSync(path.join(dir, LAST_GOOD_FILE))).toBe(true);
  });

  it('migrates a file without schemaVersion and keeps every root, server and grant', async () => {
    const dir = tempDir();
    const { schemaVersion: _drop, settings: _settings, ...old } = sample();
    fs.writeFileSync(path.join(dir, CONFIG_FILE), JSON.stringify(old));
    const { registry, notices } = new RegistryStore(dir).open();
    expect(registry).toEqual({ ...sample(), schemaVersion: SCHEMA_VERSION });
    expect(notices[0]).toMatchObject({ code: 'store-migrated' });
  });

  it('leaves out an opt-in name it does not know, keeps the rest and the whole registry, and says so', async () => {
    const dir = tempDir();
    const withChoice = sample();
    const server = { ...withChoice.servers[0], writableByChoice: { r1: ['.vscode', '.a-name-from-another-version'] } };
    fs.writeFileSync(path.join(dir, CONFIG_FILE), JSON.stringify({ ...withChoice, servers: [server] }));
    const { registry, notices } = new RegistryStore(dir).open();
    // Narrower, never wider: the known name stays a choice, the unknown one is protected again.
    expect(registry.servers[0]?.writableByChoice).toEqual({ r1: ['.vscode'] });
    expect(registry.roots).toHaveLength(1);
    expect(registry.grants).toEqual({ s1: { r1: 'read-write' } });
    expect(notices).toEqual([expect.objectContaining({ code: 'store-opt-ins-dropped', level: 'info', message: expect.stringContaining('.a-name-from-another-version') })]);
    // The narrower choice is written back; nothing was set aside as damaged.
    expect(JSON.parse(fs.readFileSync(path.join(dir, CONFIG_FILE), 'utf8')).servers[0].writableByChoice).toEqual({ r1: ['.vscode'] });
    expect(fs.readdirSync(dir).some((name) => name.startsWith('config.corrupt-'))).toBe(false);
  });

  it('never overwrites a file written by a newer version', async () => {
    const dir = tempDir();
    const newer = JSON.stringify({ ...sample(), schemaVersion: SCHEMA_VERSION + 1 });
    fs.writeFileSync(path.join(dir, CONFIG_FILE), newer);
    const store = new RegistryStore(dir);
    const { notices, newerVersion } = store.open();
    expect(notices[0]).toMatchObject({ code: 'store-newer', level: 'error' });
    expect(newerVersion).toMatch(/newer version/);
    expect(fs.readFileSync(path.join(dir, CONFIG_FILE), 'utf8')).toBe(newer);
    expect(fs.existsSync(path.join(dir, LAST_GOOD_FILE))).toBe(false);
  });

  it('removes the temp files of writers that died mid-write at the next open, and leaves a live writer\'s', () => {
    const dir = tempDir();
    // A pid that has exited (its own child, waited for), and one that is alive and not ours.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const alive = process.ppid;
    const old = new Date(Date.now() - 120_000);
    const files = {
      dead: `${CONFIG_FILE}.${dead}.k1ab.tmp`,
      deadLock: `${CONFIG_FILE}.lock.${dead}.k1ab`,
      alive: `${CONFIG_FILE}.${alive}.k1cd.tmp`,
      // Earlier versions' temp files carry no pid: removed once older than a minute, not before.
      oldUnnamed: `${CONFIG_FILE}.tmp-1700000000000abc`,
      freshUnnamed: `${CONFIG_FILE}.tmp-1700000000001def`,
    };
    for (const name of Object.values(files)) fs.writeFileSync(path.join(dir, name), JSON.stringify(sample()));
    fs.utimesSync(path.join(dir, files.oldUnnamed), old, old);
    new RegistryStore(dir).open();
    const left = fs.readdirSync(dir);
    expect(left).not.toContain(files.dead);
    expect(left).not.toContain(files.deadLock);
    expect(left).not.toContain(files.oldUnnamed);
    expect(left).toContain(files.alive);
    expect(left).toContain(files.freshUnnamed);
  });
});
