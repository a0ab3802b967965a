// The views the one writer keeps beside config.json, one per server: each edit rewrites the views
// it changed and no other, the index names the config.json version they describe, and what the
// views say is what config.json says.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryEditor } from '../../../../electron/host/registry/registry-commands.js';
import { signatureOf } from '../../../../electron/host/registry/registry-file.js';
import { CONFIG_FILE, parseRegistry } from '../../../../electron/host/registry/registry-store.js';
import { readServerView, readViewsIndex, registryOfView, viewFileName, viewOf, viewPath, VIEWS_DIR, VIEWS_INDEX_FILE } from '../../../../electron/host/registry/server-views.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => removeTempDirs());

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
    await editor.setGrants([one.id], [a, b], true);
    await editor.setGrants([two.id], [c], true, 'read-only');
    return { one: one.id, two: two.id, a, b, c };
  });
}

const onDisk = (configDir: string) => parseRegistry(fs.readFileSync(path.join(configDir, CONFIG_FILE), 'utf8')).registry;
const identity = (file: string) => {
  const stat = fs.statSync(file);
  return `${stat.ino}:${stat.mtimeMs}`;
};

describe('server views', () => {
  it('say what config.json says about each server, and the index names that config.json version', async () => {
    const configDir = tempDir('config-');
    const { one, two, a, b, c } = await seed(configDir);
    const registry = onDisk(configDir);
    const views = readViewsIndex(configDir);
    expect(views?.index.source).toEqual(signatureOf(path.join(configDir, CONFIG_FILE)));
    expect(views?.index.servers.map((entry) => entry.name)).toEqual(['one', 'two']);
    for (const id of [one, two]) expect(readServerView(configDir, id)?.view).toEqual(viewOf(registry, id));
    expect(readServerView(configDir, one)?.view.roots.map((root) => root.id)).toEqual([a, b]);
    expect(readServerView(configDir, two)?.view.grants).toEqual({ [c]: 'read-only' });
  });

  it('an edit rewrites the views it changed and leaves the others alone', async () => {
    const configDir = tempDir('config-');
    const { one, two, c } = await seed(configDir);
    const untouched = identity(viewPath(configDir, two));
    const hashTwo = readServerView(configDir, two)?.hash;
    const before = readServerView(configDir, one)?.hash;
    await edit(configDir, (editor) => editor.setGrants([one], [c], true, 'read-write'));
    expect(readServerView(configDir, one)?.hash).not.toBe(before);
    expect(readServerView(configDir, one)?.view.grants[c]).toBe('read-write');
    expect(identity(viewPath(configDir, two))).toBe(untouched);
    expect(readViewsIndex(configDir)?.index.servers.find((entry) => entry.id === two)?.hash).toBe(hashTwo);
    // A root added and granted to nobody changes no view.
    const oneNow = identity(viewPath(configDir, one));
    await edit(configDir, (editor) => editor.addRoots([tempDir('d-')]));
    expect(identity(viewPath(configDir, one))).toBe(oneNow);
    expect(readViewsIndex(configDir)?.index.source).toEqual(signatureOf(path.join(configDir, CONFIG_FILE)));
  });

  it('a renamed root changes the views that show it; a removed server loses its view', async () => {
    const configDir = tempDir('config-');
    const { one, two, c } = await seed(configDir);
    const oneBefore = identity(viewPath(configDir, one));
    await edit(configDir, (editor) => editor.renameRoot(c, 'renamed'));
    expect(readServerView(configDir, two)?.view.roots[0]?.name).toBe('renamed');
    expect(identity(viewPath(configDir, one))).toBe(oneBefore);
    await edit(configDir, (editor) => editor.removeServer(two));
    expect(fs.existsSync(viewPath(configDir, two))).toBe(false);
    expect(readViewsIndex(configDir)?.index.servers.map((entry) => entry.id)).toEqual([one]);
  });

  it('views older than config.json (a hand edit, a writer that died) are made anew by the next writer', async () => {
    const configDir = tempDir('config-');
    const { one, two } = await seed(configDir);
    const file = path.join(configDir, CONFIG_FILE);
    const hand = onDisk(configDir);
    hand.servers = hand.servers.map((server) => (server.id === one ? { ...server, name: 'renamed-by-hand' } : server));
    fs.writeFileSync(file, JSON.stringify(hand));
    fs.writeFileSync(path.join(configDir, VIEWS_DIR, 'leftover.json.123.tmp'), 'x');
    expect(readViewsIndex(configDir)?.index.source).not.toEqual(signatureOf(file));
    // Opening as a writer (the app, the CLI) brings them up to date.
    await edit(configDir, async () => undefined);
    expect(readViewsIndex(configDir)?.index.source).toEqual(signatureOf(file));
    expect(readServerView(configDir, one)?.view.server.name).toBe('renamed-by-hand');
    expect(fs.readdirSync(path.join(configDir, VIEWS_DIR)).sort()).toEqual([viewFileName(one), viewFileName(two)].sort());
  });

  it("carries the file record's bounds where set, so a proxy trims its server's record as the settings say", async () => {
    const configDir = tempDir('views-');
    const { one } = await seed(configDir);
    const before = fs.readFileSync(viewPath(configDir, one), 'utf8');
    expect(readServerView(configDir, one)?.view.record).toBeUndefined();
    // In the same writer that wrote the views before (it remembers what it wrote): a change of the settings alone is seen.
    await edit(configDir, async (editor) => {
      await editor.addServer({ name: 'three', transport: stdio, enabled: true, sharing: true });
      await editor.updateSettings({ recordEntries: 500, recordDays: 7 });
    });
    expect(readServerView(configDir, one)?.view.record).toEqual({ recordEntries: 500, recordDays: 7 });
    expect(registryOfView(readServerView(configDir, one)?.view).settings).toMatchObject({ recordEntries: 500, recordDays: 7 });
    expect(fs.readFileSync(viewPath(configDir, one), 'utf8')).not.toBe(before);
  });

  it('names a view file after its server id safely, and apart for ids that differ only in unsafe characters', () => {
    expect(viewFileName('a/b')).not.toBe(viewFileName('a_b'));
    expect(viewFileName('../../etc')).toMatch(/^[\w-]+\.json$/);
  });

  it('a damaged index or view reads as missing, never as a view', async () => {
    const configDir = tempDir('config-');
    const { one } = await seed(configDir);
    fs.writeFileSync(viewPath(configDir, one), '{"format":1,"hash":"x","view":{"server":{}}}');
    expect(readServerView(configDir, one)).toBeUndefined();
    fs.writeFileSync(path.join(configDir, VIEWS_INDEX_FILE), '{not json');
    expect(readViewsIndex(configDir)).toBeUndefined();
  });
});
