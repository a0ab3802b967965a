// What a proxy follows of the registry: its one server, from that server's view while the views
// describe config.json, and from config.json itself when they do not (a hand edit, a writer that
// died before the index, no views at all). Either way it ends up with what config.json says.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryEditor } from '../../../../electron/host/registry/registry-commands.js';
import type { RegistryChange } from '../../../../electron/host/registry/registry-model.js';
import { CONFIG_FILE, parseRegistry } from '../../../../electron/host/registry/registry-store.js';
import { ServerViewSource } from '../../../../electron/host/registry/server-view-source.js';
import { readViewsIndex, viewOf, viewPath, VIEWS_DIR, VIEWS_INDEX_FILE } from '../../../../electron/host/registry/server-views.js';
import { SCHEMA_VERSION } from '../../../../shared/registry-schema.js';
import { fakeSecretCodec } from '../../../support/fake-secret-codec.js';
import { removeTempDirs, tempDir, waitFor } from '../../../support/index.js';

const sources: ServerViewSource[] = [];

afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
  removeTempDirs();
});

const stdio = { type: 'stdio' as const, command: 'node', args: [], env: {} };

async function edit<T>(configDir: string, change: (editor: RegistryEditor) => Promise<T>): Promise<T> {
  const editor = await RegistryEditor.open(configDir);
  try {
    return await change(editor);
  } finally {
    await editor.close();
  }
}

async function seed(configDir: string) {
  return edit(configDir, async (editor) => {
    const { added } = await editor.addRoots([tempDir('a-'), tempDir('b-'), tempDir('c-')]);
    const [a, b, c] = added.map((root) => root.id) as [string, string, string];
    const one = await editor.addServer({ name: 'one', transport: stdio, enabled: true, sharing: true });
    const two = await editor.addServer({ name: 'two', transport: stdio, enabled: true, sharing: true });
    await editor.setGrants([one.id], [a], true);
    await editor.setGrants([two.id], [c], true);
    return { one: one.id, two: two.id, a, b, c };
  });
}

async function follow(configDir: string, server: string, graceMs = 100) {
  const source = new ServerViewSource({ configDir, server, pollMs: 200, graceMs });
  sources.push(source);
  const notices = await source.open();
  const changes: RegistryChange[] = [];
  source.on('change', (change) => changes.push(change));
  return { source, notices, changes };
}

const onDisk = (configDir: string) => parseRegistry(fs.readFileSync(path.join(configDir, CONFIG_FILE), 'utf8')).registry;
/** What config.json says about this server, shaped as the source shapes it. */
const truth = (configDir: string, serverId: string) => viewOf(onDisk(configDir), serverId);
const seen = (source: ServerViewSource) => ({ server: source.current.servers[0], grants: Object.values(source.current.grants)[0], roots: source.current.roots });

describe('ServerViewSource', () => {
  it('finds its server by name, holds only that server, and follows a grant another process makes', async () => {
    const configDir = tempDir('config-');
    const { one, b } = await seed(configDir);
    const { source, changes } = await follow(configDir, 'one');
    expect(source.current.servers.map((server) => server.id)).toEqual([one]);
    expect(seen(source)).toEqual(truth(configDir, one));
    await edit(configDir, (editor) => editor.setGrants([one], [b], true));
    await waitFor(() => changes.length > 0, { what: 'the grant' });
    expect(seen(source)).toEqual(truth(configDir, one));
    expect(source.current.roots).toHaveLength(2);
  });

  it('an edit that does not concern its server publishes nothing', async () => {
    const configDir = tempDir('config-');
    const { one, two, b } = await seed(configDir);
    const { changes } = await follow(configDir, 'one');
    const concerned = await follow(configDir, 'two');
    await edit(configDir, (editor) => editor.setGrants([two], [b], true));
    await waitFor(() => concerned.changes.length > 0, { what: 'the other server to hear of its grant' });
    // A later edit that does concern `one` arrives after it: had the first reached it, it would be here first.
    await edit(configDir, (editor) => editor.renameRoot(b, 'bee'));
    await edit(configDir, (editor) => editor.setGrants([one], [b], true));
    await waitFor(() => changes.length > 0, { what: 'its own grant' });
    expect(changes.every((change) => Object.keys(change.registry.grants[one] ?? {}).includes(b))).toBe(true);
  });

  it('follows a hand edit of config.json, which writes no views, by reading config.json itself', async () => {
    const configDir = tempDir('config-');
    const { one, b } = await seed(configDir);
    const { source, changes } = await follow(configDir, 'one');
    const hand = onDisk(configDir);
    hand.grants[one] = { ...hand.grants[one], [b]: 'read-only' };
    fs.writeFileSync(path.join(configDir, CONFIG_FILE), JSON.stringify(hand, null, 2));
    await waitFor(() => changes.length > 0, { what: 'the hand edit' });
    expect(seen(source)).toEqual(truth(configDir, one));
    expect(source.current.grants[one]?.[b]).toBe('read-only');
  });

  it('a writer that died between config.json and the views: the proxy reads config.json after the grace', async () => {
    const configDir = tempDir('config-');
    const { one, b } = await seed(configDir);
    const { source, changes } = await follow(configDir, 'one');
    const views = path.join(configDir, VIEWS_DIR);
    const saved = { index: fs.readFileSync(path.join(configDir, VIEWS_INDEX_FILE)), view: fs.readFileSync(viewPath(configDir, one)) };
    await edit(configDir, (editor) => editor.setGrants([one], [b], true));
    // Put the old views back, as if the writer never got past config.json.
    fs.writeFileSync(viewPath(configDir, one), saved.view);
    fs.writeFileSync(path.join(configDir, VIEWS_INDEX_FILE), saved.index);
    expect(fs.existsSync(views)).toBe(true);
    await waitFor(() => Object.keys(source.current.grants[one] ?? {}).includes(b), { what: 'the grant, through config.json' });
    expect(seen(source)).toEqual(truth(configDir, one));
    expect(changes.length).toBeGreaterThan(0);
  });

  it('opens without views (written by an older version) and follows config.json until views appear', async () => {
    const configDir = tempDir('config-');
    const { one, b, c } = await seed(configDir);
    fs.rmSync(path.join(configDir, VIEWS_INDEX_FILE));
    fs.rmSync(path.join(configDir, VIEWS_DIR), { recursive: true });
    const { source } = await follow(configDir, one);
    expect(seen(source)).toEqual(truth(configDir, one));
    await edit(configDir, (editor) => editor.setGrants([one], [b], true));
    await waitFor(() => source.current.roots.length === 2, { what: 'the grant' });
    expect(fs.existsSync(path.join(configDir, VIEWS_INDEX_FILE))).toBe(true);
    await edit(configDir, (editor) => editor.setGrants([one], [c], true));
    await waitFor(() => source.current.roots.length === 3, { what: 'the next grant, through its view' });
    expect(seen(source)).toEqual(truth(configDir, one));
  });

  it('a damaged view is never trusted: config.json decides', async () => {
    const configDir = tempDir('config-');
    const { one, b } = await seed(configDir);
    const { source } = await follow(configDir, 'one');
    await edit(configDir, (editor) => editor.setGrants([one], [b], true));
    await waitFor(() => source.current.roots.length === 2, { what: 'the grant' });
    fs.writeFileSync(viewPath(configDir, one), '{"format":1,"hash":"forged","view":{}}');
    const other = await follow(configDir, 'one');
    expect(seen(other.source)).toEqual(truth(configDir, one));
  });

  it('a removed server is followed to nothing; a renamed one is still found by id', async () => {
    const configDir = tempDir('config-');
    const { one } = await seed(configDir);
    const { source } = await follow(configDir, 'one');
    await edit(configDir, (editor) => editor.updateServer(one, { name: 'uno' }));
    await waitFor(() => source.current.servers[0]?.name === 'uno', { what: 'the rename' });
    await edit(configDir, (editor) => editor.removeServer(one));
    await waitFor(() => source.current.servers.length === 0, { what: 'the removal' });
    expect(source.current.roots).toEqual([]);
  });

  it('refuses a server that is not there', async () => {
    const configDir = tempDir('config-');
    await seed(configDir);
    await expect(follow(configDir, 'nobody')).rejects.toMatchObject({ code: 'not-found' });
  });

  // The views are a cache of config.json, never a second truth: whatever state they are left in,
  // a proxy never holds a grant config.json does not. `wide` is what the views said before a revoke.
  describe('never wider than config.json', () => {
    /** `one` granted a and b, its views on disk saved; then b revoked. */
    async function revokedBehindViews(configDir: string, how: 'writer' | 'hand') {
      const ids = await seed(configDir);
      await edit(configDir, (editor) => editor.setGrants([ids.one], [ids.b], true));
      const wide = { index: fs.readFileSync(path.join(configDir, VIEWS_INDEX_FILE)), view: fs.readFileSync(viewPath(configDir, ids.one)) };
      if (how === 'writer') {
        await edit(configDir, (editor) => editor.setGrants([ids.one], [ids.b], false));
      } else {
        const hand = onDisk(configDir);
        delete hand.grants[ids.one]?.[ids.b];
        fs.writeFileSync(path.join(configDir, CONFIG_FILE), JSON.stringify(hand, null, 2));
      }
      return { ...ids, wide };
    }
    const holds = (source: ServerViewSource, root: string) => Object.keys(source.current.grants[Object.keys(source.current.grants)[0] ?? ''] ?? {}).includes(root);
    /** The view file as the writer makes it, with a hash that is the body's: a consistent forgery. */
    const forgeView = (configDir: string, serverId: string, view: unknown) => {
      const body = JSON.stringify(view);
      const hash = createHash('sha1').update(body).digest('hex');
      fs.writeFileSync(viewPath(configDir, serverId), `{"format":1,"hash":"${hash}","view":${body}}`);
      return hash;
    };

    it('a revoke by hand edit (no views written) is followed; the wider view is never published again', async () => {
      const configDir = tempDir('config-');
      const { one, b } = await seed(configDir);
      await edit(configDir, (editor) => editor.setGrants([one], [b], true));
      const { source, changes } = await follow(configDir, 'one');
      expect(holds(source, b)).toBe(true);
      const hand = onDisk(configDir);
      delete hand.grants[one]?.[b];
      fs.writeFileSync(path.join(configDir, CONFIG_FILE), JSON.stringify(hand, null, 2));
      await waitFor(() => !holds(source, b), { what: 'the revoke, through config.json' });
      const narrowedAt = changes.length;
      // More edits that concern other servers and other roots: views come back, b never does.
      await edit(configDir, (editor) => editor.renameRoot(b, 'bee'));
      await edit(configDir, (editor) => editor.setGrants([one], [b], false));
      await waitFor(() => readViewsIndex(configDir)?.index.servers.length === 2, { what: 'views anew' });
      expect(seen(source)).toEqual(truth(configDir, one));
      expect(changes.slice(narrowedAt - 1).every((change) => !Object.keys(change.registry.grants[one] ?? {}).includes(b))).toBe(true);
    });

    for (const how of ['writer', 'hand'] as const) {
      it(`a proxy that starts after a revoke (${how}) while the wider views of the previous version are on disk opens narrow`, async () => {
        const configDir = tempDir('config-');
        const { one, b, c, wide } = await revokedBehindViews(configDir, how);
        // As if the writer died after config.json, before its views: the older, wider ones remain.
        fs.writeFileSync(viewPath(configDir, one), wide.view);
        fs.writeFileSync(path.join(configDir, VIEWS_INDEX_FILE), wide.index);
        const { source, changes } = await follow(configDir, 'one');
        expect(holds(source, b)).toBe(false);
        expect(seen(source)).toEqual(truth(configDir, one));
        // Nothing later brings the wider view back: the next edit of its own is followed without b.
        await edit(configDir, (editor) => editor.setGrants([one], [c], true));
        await waitFor(() => holds(source, c), { what: 'the next grant' });
        expect(changes.every((change) => !Object.keys(change.registry.grants[one] ?? {}).includes(b))).toBe(true);
        expect(seen(source)).toEqual(truth(configDir, one));
      });
    }

    it('a running proxy whose writer died after a revoke, before the views, drops the grant after the grace', async () => {
      const configDir = tempDir('config-');
      const { one, b } = await seed(configDir);
      await edit(configDir, (editor) => editor.setGrants([one], [b], true));
      const { source } = await follow(configDir, 'one');
      const wide = { index: fs.readFileSync(path.join(configDir, VIEWS_INDEX_FILE)), view: fs.readFileSync(viewPath(configDir, one)) };
      await edit(configDir, (editor) => editor.setGrants([one], [b], false));
      fs.writeFileSync(viewPath(configDir, one), wide.view);
      fs.writeFileSync(path.join(configDir, VIEWS_INDEX_FILE), wide.index);
      await waitFor(() => !holds(source, b), { what: 'the revoke, through config.json' });
      expect(seen(source)).toEqual(truth(configDir, one));
    });

    for (const schemaVersion of [SCHEMA_VERSION + 1, SCHEMA_VERSION - 1]) {
      it(`an index of schema ${schemaVersion} (this build: ${SCHEMA_VERSION}) naming the current config.json is not trusted`, async () => {
        const configDir = tempDir('config-');
        const { one, b } = await seed(configDir);
        // A consistent, wider view of another schema: its hash is right and its index names this very config.json.
        const narrow = truth(configDir, one)!;
        const bRoot = onDisk(configDir).roots.find((root) => root.id === b)!;
        const hash = forgeView(configDir, one, { ...narrow, grants: { ...narrow.grants, [b]: 'read-write' }, roots: [...narrow.roots, bRoot] });
        const index = readViewsIndex(configDir)!.index;
        const forged = { ...index, schemaVersion, servers: index.servers.map((entry) => (entry.id === one ? { ...entry, hash } : entry)) };
        fs.writeFileSync(path.join(configDir, VIEWS_INDEX_FILE), JSON.stringify(forged));
        const { source } = await follow(configDir, 'one');
        expect(holds(source, b)).toBe(false);
        expect(seen(source)).toEqual(truth(configDir, one));
      });
    }

    it('a writer that hangs holding the lock after a revoke does not keep the wider grant: config.json is read after a bounded wait', async () => {
      const configDir = tempDir('config-');
      const { one, b } = await seed(configDir);
      await edit(configDir, (editor) => editor.setGrants([one], [b], true));
      const { source } = await follow(configDir, 'one');
      expect(holds(source, b)).toBe(true);
      // A live holder (this very process) that wrote config.json and never gets to the views.
      const lock = path.join(configDir, `${CONFIG_FILE}.lock`);
      fs.writeFileSync(lock, String(process.pid));
      try {
        const hand = onDisk(configDir);
        delete hand.grants[one]?.[b];
        fs.writeFileSync(path.join(configDir, CONFIG_FILE), JSON.stringify(hand, null, 2));
        await waitFor(() => !holds(source, b), { what: 'the revoke, read from config.json despite the held lock', timeoutMs: 30_000 });
        expect(seen(source)).toEqual(truth(configDir, one));
      } finally {
        fs.rmSync(lock, { force: true });
      }
    });

    it('a view edited by hand, keeping the hash the index names, is not a view', async () => {
      const configDir = tempDir('config-');
      const { one, b } = await seed(configDir);
      const file = viewPath(configDir, one);
      const text = fs.readFileSync(file, 'utf8');
      const bRoot = onDisk(configDir).roots.find((root) => root.id === b);
      const edited = text.replace(/"grants":\{/, `"grants":{"${b}":"read-write",`).replace(/"roots":\[/, `"roots":[${JSON.stringify(bRoot)},`);
      expect(edited).not.toBe(text);
      fs.writeFileSync(file, edited);
      const { source } = await follow(configDir, 'one');
      expect(holds(source, b)).toBe(false);
      expect(seen(source)).toEqual(truth(configDir, one));
    });
  });
});

describe('ServerViewSource and the keychain', () => {
  /** Two servers, one with a secret sealed by the codec; a follower that counts how often it opens the codec. */
  async function sealedWorld() {
    const configDir = tempDir('config-');
    const codec = fakeSecretCodec();
    const editor = await RegistryEditor.open(configDir, { secrets: codec });
    const plain = await editor.addServer({ name: 'plain', transport: stdio, enabled: true, sharing: true });
    const sealed = await editor.addServer({ name: 'sealed', transport: { ...stdio, env: { API_KEY: 'sk-clear-0001' } }, enabled: true, sharing: true });
    await editor.close();
    expect(fs.readFileSync(path.join(configDir, CONFIG_FILE), 'utf8')).not.toContain('sk-clear-0001');
    let opened = 0;
    const followWithSecrets = async (server: string) => {
      const source = new ServerViewSource({ configDir, server, pollMs: 200, graceMs: 100, secrets: async () => (opened++, codec) });
      sources.push(source);
      await source.open();
      const changes: RegistryChange[] = [];
      source.on('change', (change) => changes.push(change));
      return { source, changes };
    };
    return { configDir, codec, plain: plain.id, sealed: sealed.id, opened: () => opened, followWithSecrets };
  }
  const envOf = (source: ServerViewSource) => (source.current.servers[0]?.transport as typeof stdio).env;

  it('never opens it for a server with no stored secret', async () => {
    const world = await sealedWorld();
    const { source } = await world.followWithSecrets('plain');
    expect(source.current.servers[0]?.id).toBe(world.plain);
    expect(world.opened()).toBe(0);
  });

  it('opens it once for a server with one, and the server is seen with its clear value', async () => {
    const world = await sealedWorld();
    const { source } = await world.followWithSecrets('sealed');
    expect(envOf(source)).toEqual({ API_KEY: 'sk-clear-0001' });
    expect(world.opened()).toBe(1);
  });

  it('opens it when a secret is added later, and publishes the change only with the value opened', async () => {
    const world = await sealedWorld();
    const { source, changes } = await world.followWithSecrets('plain');
    const editor = await RegistryEditor.open(world.configDir, { secrets: world.codec });
    await editor.updateServer(world.plain, { transport: { ...stdio, env: { TOKEN: 'tok-clear-0002' } } });
    await editor.close();
    await waitFor(() => changes.length > 0, { what: 'the new secret' });
    expect(changes.map((change) => (change.registry.servers[0]?.transport as typeof stdio).env)).toEqual([{ TOKEN: 'tok-clear-0002' }]);
    expect(envOf(source)).toEqual({ TOKEN: 'tok-clear-0002' });
    expect(world.opened()).toBe(1);
  });
});
