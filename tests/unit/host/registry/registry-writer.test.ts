// Who changed the registry: each writer stamps the file, and the app names the CLI's changes as the
// CLI's, anything else's as another process's, and its own as its own. Real files, real writers.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryCommands, RegistryEditor } from '../../../../electron/host/registry/registry-commands.js';
import { RegistryModel, type RegistryChange } from '../../../../electron/host/registry/registry-model.js';
import { CONFIG_FILE } from '../../../../electron/host/registry/registry-store.js';
import { removeTempDirs, tempDir, waitFor } from '../../../support/index.js';

const open: RegistryModel[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((model) => model.close()));
  removeTempDirs();
});

const stdio = { type: 'stdio' as const, command: 'node', args: [], env: {} };
const file = (configDir: string) => path.join(configDir, CONFIG_FILE);
const readJson = (configDir: string) => JSON.parse(fs.readFileSync(file(configDir), 'utf8')) as Record<string, unknown>;

async function app(configDir: string) {
  const model = new RegistryModel({ configDir, writer: 'app', follow: true, pollMs: 50 });
  open.push(model);
  await model.open();
  const changes: RegistryChange[] = [];
  model.on('change', (change) => changes.push(change));
  return { model, changes };
}

async function addServer(configDir: string, name: string, writer?: 'cli') {
  const editor = await RegistryEditor.open(configDir, writer ? { writer } : {});
  await editor.addServer({ name, transport: stdio, enabled: false, sharing: true });
  await editor.close();
}

const externalWith = (changes: RegistryChange[], name: string) =>
  changes.find((change) => change.origin === 'external' && change.registry.servers.some((server) => server.name === name));

describe('who wrote the registry', () => {
  it('names the CLI’s write as the CLI’s, an unstamped one as another process’s, its own as its own', async () => {
    const configDir = tempDir('config-');
    const { model, changes } = await app(configDir);
    await addServer(configDir, 'by-cli', 'cli');
    await waitFor(() => externalWith(changes, 'by-cli'), { what: 'the CLI’s write' });
    expect(externalWith(changes, 'by-cli')?.source).toBe('cli');

    await addServer(configDir, 'by-someone');
    await waitFor(() => externalWith(changes, 'by-someone'), { what: 'the unstamped write' });
    expect(externalWith(changes, 'by-someone')?.source).toBe('other');

    await new RegistryCommands(model).addServer({ name: 'by-app', transport: stdio, enabled: false, sharing: true });
    expect(changes.find((change) => change.origin === 'edit')?.source).toBe('this-app');
    expect(readJson(configDir).writtenBy).toMatchObject({ by: 'app', pid: process.pid });
  });

  it('a hand edit that keeps the CLI’s stamp is not taken for the CLI', async () => {
    const configDir = tempDir('config-');
    const { changes } = await app(configDir);
    await addServer(configDir, 'by-cli', 'cli');
    await waitFor(() => externalWith(changes, 'by-cli'), { what: 'the CLI’s write' });
    const json = readJson(configDir);
    (json.settings as Record<string, unknown>).theme = 'dark';
    fs.writeFileSync(file(configDir), JSON.stringify(json, null, 1));
    await waitFor(() => changes.find((change) => change.registry.settings.theme === 'dark'), { what: 'the hand edit' });
    expect(changes.find((change) => change.registry.settings.theme === 'dark')?.source).toBe('other');
  });

  it('an edit made before the app saw the CLI’s write: the CLI’s change is still the CLI’s, the edit the app’s', async () => {
    const configDir = tempDir('config-');
    const model = new RegistryModel({ configDir, writer: 'app' }); // not following: the watch event is still on its way
    open.push(model);
    await model.open();
    const changes: RegistryChange[] = [];
    model.on('change', (change) => changes.push(change));
    await addServer(configDir, 'by-cli', 'cli');
    await new RegistryCommands(model).addServer({ name: 'by-app', transport: stdio, enabled: false, sharing: true });
    // One change, as before: the CLI's part (previous -> base) and the app's (base -> registry) told apart.
    expect(changes).toHaveLength(1);
    const [change] = changes;
    expect([change?.origin, change?.source, change?.registry.servers.map((server) => server.name)]).toEqual(['edit', 'this-app', ['by-cli', 'by-app']]);
    expect(change?.rebased?.source).toBe('cli');
    expect(change?.rebased?.base.servers.map((server) => server.name)).toEqual(['by-cli']);
  });

  it('loads a file without a stamp (an older version’s) and one with a stamp it cannot read (a newer version’s)', async () => {
    for (const writtenBy of [undefined, { by: 'ide-plugin', pid: 7, id: 'abc', host: 'x' }, 42, { by: 3 }]) {
      const configDir = tempDir('config-');
      await addServer(configDir, 'kept');
      const json: Record<string, unknown> = { ...readJson(configDir), writtenBy };
      fs.writeFileSync(file(configDir), JSON.stringify(json));
      const { model, changes } = await app(configDir);
      expect(model.current.servers.map((server) => server.name)).toEqual(['kept']);
      json.settings = { locale: 'de', theme: 'system' };
      fs.writeFileSync(file(configDir), JSON.stringify(json));
      await waitFor(() => changes.find((change) => change.registry.settings.locale === 'de'), { what: `the edit with writtenBy ${JSON.stringify(writtenBy)}` });
      expect(changes.at(-1)?.source).toBe('other');
      await model.close();
    }
  });
});
