// The one writer: every input (load, local edit, another process's write) goes through one ordered
// queue, so an edit always lands on the file as it is, a revoke answered ok stays revoked, and
// nothing a person or another version wrote is overwritten unseen.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RegistryCommands, RegistryEditor } from '../../../../electron/host/registry/registry-commands.js';
import { RegistryModel, type RegistryChange } from '../../../../electron/host/registry/registry-model.js';
import { CONFIG_FILE, parseRegistry } from '../../../../electron/host/registry/registry-store.js';
import type { StoreNotice } from '../../../../electron/host/registry/registry-store.js';
import { SCHEMA_VERSION } from '../../../../shared/registry-schema.js';
import { removeTempDirs, tempDir, waitFor } from '../../../support/index.js';

const open: RegistryModel[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((model) => model.close()));
  removeTempDirs();
});

async function model(configDir: string, options: Partial<ConstructorParameters<typeof RegistryModel>[0]> = {}) {
  const created = new RegistryModel({ configDir, ...options });
  open.push(created);
  const notices: StoreNotice[] = [...(await created.open())];
  const changes: RegistryChange[] = [];
  created.on('notice', (notice) => notices.push(notice));
  created.on('change', (change) => changes.push(change));
  return { model: created, notices, changes };
}

const onDisk = (configDir: string) => parseRegistry(fs.readFileSync(path.join(configDir, CONFIG_FILE), 'utf8')).registry;
const stdio = { type: 'stdio' as const, command: 'node', args: [], env: {} };

async function seed(configDir: string) {
  const editor = await RegistryEditor.open(configDir);
  const { added } = await editor.addRoots([tempDir('a-')]);
  const server = await editor.addServer({ name: 'fs', transport: stdio, enabled: false, sharing: true });
  const rootA = added[0]?.id as string;
  await editor.setGrants([server.id], [rootA], true, 'read-write');
  await editor.close();
  return { serverId: server.id, rootA };
}

describe('RegistryModel', () => {
  it('a revoke made while another process writes lands on top of that write: nothing lost, nothing undone', async () => {
    const configDir = tempDir('config-');
    const { serverId, rootA } = await seed(configDir);
    // No watch: the app has not looked at the file since another process wrote it (its watch event
    // is still on its way). That is the moment the old code lost B and brought A back.
    const app = await model(configDir);
    const other = await RegistryEditor.open(configDir);
    const folderB = tempDir('b-');
    await other.addRoots([folderB]);
    await other.close();
    const revoke = new RegistryCommands(app.model).setGrants([serverId], [rootA], false);
    await expect(revoke).resolves.toEqual({ changed: 1, revoked: [{ serverId, rootId: rootA, mode: 'read-write' }], granted: [] });

    for (const registry of [app.model.current, onDisk(configDir)]) {
      expect(registry.grants[serverId]).toEqual({});
      expect(registry.roots.map((root) => root.canonicalPath)).toContain(folderB);
    }
    // The watch event that arrives afterwards changes nothing.
    app.model.follow();
    await app.model.drained();
    expect(app.model.current.grants[serverId]).toEqual({});
    expect(app.changes.filter((change) => change.origin === 'external')).toEqual([]);
  });

  it('does not take its own write for another process’s', async () => {
    const configDir = tempDir('config-');
    const app = await model(configDir);
    await new RegistryCommands(app.model).addServer({ name: 'x', transport: stdio, enabled: false, sharing: true });
    app.model.follow();
    await app.model.drained();
    expect(app.changes.map((change) => change.origin)).toEqual(['edit']);
  });

  it('follows a valid outside edit', async () => {
    const configDir = tempDir('config-');
    const app = await model(configDir, { follow: true });
    await (await RegistryEditor.open(configDir)).addServer({ name: 'from-cli', transport: stdio, enabled: false, sharing: true });
    await waitFor(() => app.model.current.servers.some((server) => server.name === 'from-cli'), { what: 'the outside edit' });
    expect(app.changes.at(-1)?.origin).toBe('external');
  });

  it('an outside grant keeps the identity of every root and every other grant (caches downstream stay valid)', async () => {
    const configDir = tempDir('config-');
    const { serverId, rootA } = await seed(configDir);
    const app = await model(configDir, { follow: true });
    const before = app.model.current;
    const other = await RegistryEditor.open(configDir);
    const second = await other.addServer({ name: 'second', transport: stdio, enabled: false, sharing: true });
    await other.setGrants([second.id], [rootA], true);
    await other.close();
    await waitFor(() => Object.keys(app.model.current.grants[second.id] ?? {}).length === 1, { what: 'the outside grant' });
    const after = app.model.current;
    expect(app.changes.at(-1)?.origin).toBe('external');
    expect(after.roots).toBe(before.roots);
    expect(after.grants[serverId]).toBe(before.grants[serverId]);
    expect(after.servers[0]).toBe(before.servers[0]);
    expect(after).toEqual(onDisk(configDir));
  });

  it('never overwrites a file a newer version wrote while it ran: edits are refused with the reason', async () => {
    const configDir = tempDir('config-');
    const app = await model(configDir, { follow: true });
    const newer = JSON.stringify({ ...onDisk(configDir), schemaVersion: SCHEMA_VERSION + 1, future: true });
    fs.writeFileSync(path.join(configDir, CONFIG_FILE), newer);
    app.model.follow();
    await app.model.drained();
    expect(app.notices.map((notice) => notice.code)).toContain('store-newer');
    const edit = new RegistryCommands(app.model).addServer({ name: 'x', transport: stdio, enabled: false, sharing: true });
    await expect(edit).rejects.toMatchObject({ code: 'store-failed', message: expect.stringMatching(/newer version/) });
    expect(fs.readFileSync(path.join(configDir, CONFIG_FILE), 'utf8')).toBe(newer);
    expect(app.model.current.servers).toEqual([]);
  });

  it('keeps an invalid hand edit as a backup before its next save replaces it, and says where', async () => {
    const configDir = tempDir('config-');
    const app = await model(configDir, { follow: true });
    const broken = '{"roots": [ oops';
    fs.writeFileSync(path.join(configDir, CONFIG_FILE), broken);
    app.model.follow();
    await app.model.drained();
    expect(app.notices.map((notice) => notice.code)).toContain('store-external-invalid');
    await new RegistryCommands(app.model).addServer({ name: 'x', transport: stdio, enabled: false, sharing: true });
    const backups = fs.readdirSync(configDir).filter((name) => name.startsWith('config.invalid-'));
    expect(backups).toHaveLength(1);
    expect(fs.readFileSync(path.join(configDir, backups[0] as string), 'utf8')).toBe(broken);
    expect(app.notices.find((notice) => notice.code === 'store-invalid-replaced')?.message).toContain(backups[0]);
    expect(onDisk(configDir).servers.map((server) => server.name)).toEqual(['x']);
  });

  it('keeps following a config folder that was deleted and created again', async () => {
    const configDir = tempDir('config-');
    const app = await model(configDir, { follow: true, pollMs: 50 });
    fs.rmSync(configDir, { recursive: true, force: true });
    fs.mkdirSync(configDir);
    const other = await RegistryEditor.open(configDir);
    await other.addServer({ name: 'after-recreate', transport: stdio, enabled: false, sharing: true });
    await other.close();
    await waitFor(() => app.model.current.servers.some((server) => server.name === 'after-recreate'), { what: 'the edit in the new folder' });
    // And the watch is live again: a second edit arrives too.
    const again = await RegistryEditor.open(configDir);
    await again.addServer({ name: 'second', transport: stdio, enabled: false, sharing: true });
    await again.close();
    await waitFor(() => app.model.current.servers.some((server) => server.name === 'second'), { what: 'the second edit' });
  });

  it('a read that fails (EIO) is tried again, not recorded as seen: the outside edit still arrives', async () => {
    const configDir = tempDir('config-');
    const app = await model(configDir, { follow: true, pollMs: 0 });
    const file = path.join(configDir, CONFIG_FILE);
    const realOpen = fs.openSync;
    let failures = 0;
    vi.spyOn(fs, 'openSync').mockImplementation(((target: fs.PathLike, ...rest: unknown[]) => {
      if (String(target) === file && failures < 2) {
        failures++;
        throw Object.assign(new Error('EIO: i/o error, open'), { code: 'EIO' });
      }
      return (realOpen as (...args: unknown[]) => number)(target, ...rest);
    }) as typeof fs.openSync);
    const other = await RegistryEditor.open(configDir);
    await other.addServer({ name: 'after-eio', transport: stdio, enabled: false, sharing: true });
    await other.close();
    app.model.follow();
    await waitFor(() => app.model.current.servers.some((server) => server.name === 'after-eio'), { what: 'the edit after the failed reads' });
    expect(failures).toBe(2);
  });

  it('a follower (a proxy, status) reads a damaged file’s last good copy and writes nothing', async () => {
    const configDir = tempDir('config-');
    await seed(configDir);
    const good = onDisk(configDir);
    await (await RegistryEditor.open(configDir)).close(); // a writer's clean open keeps the last good copy
    fs.writeFileSync(path.join(configDir, CONFIG_FILE), 'garbage');
    const before = fs.readdirSync(configDir).sort();
    const follower = await model(configDir, { role: 'follower' });
    expect(follower.model.current.servers).toEqual(good.servers);
    expect(fs.readdirSync(configDir).sort()).toEqual(before);
    await expect(new RegistryCommands(follower.model).renameRoot('x', 'y')).rejects.toMatchObject({ code: 'internal' });
  });
});
