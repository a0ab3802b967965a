// Whatever sits at config.json's path, start-up neither hangs, nor eats memory, nor loses it: it is
// checked to be a regular file of bounded size before it is read, and anything else is moved aside
// (kept, under a dated name) while the last good copy is restored.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryEditor } from '../../../electron/host/registry/registry-commands.js';
import { CONFIG_FILE, LAST_GOOD_FILE, RegistryStore } from '../../../electron/host/registry/registry-store.js';
import { MAX_REGISTRY_BYTES } from '../../../electron/host/registry/registry-file.js';
import { removeTempDirs, tempDir } from '../../support/index.js';

afterEach(() => removeTempDirs());

/** A registry with one server, opened once by a writer so the last good copy exists. */
async function goodRegistry(): Promise<string> {
  const configDir = tempDir('kinds-');
  const editor = await RegistryEditor.open(configDir);
  await editor.addServer({ name: 'kept', transport: { type: 'stdio', command: 'node', args: [], env: {} }, enabled: false, sharing: true });
  await editor.close();
  await (await RegistryEditor.open(configDir)).close();
  expect(fs.existsSync(path.join(configDir, LAST_GOOD_FILE))).toBe(true);
  return configDir;
}

const cases: [string, (file: string) => void][] = [
  ['a symlink to /dev/zero', (file) => fs.symlinkSync('/dev/zero', file)],
  ['a FIFO', (file) => execFileSync('mkfifo', [file])],
  ['a directory', (file) => fs.mkdirSync(path.join(file, 'inside'), { recursive: true })],
  ['a file larger than any registry', (file) => fs.truncateSync((fs.writeFileSync(file, '{'), file), MAX_REGISTRY_BYTES + 1)],
];

describe('config.json that is not a plain registry file', () => {
  it.each(cases)('%s: start-up restores the last good copy and keeps what was there', async (_what, make) => {
    const configDir = await goodRegistry();
    const file = path.join(configDir, CONFIG_FILE);
    fs.rmSync(file);
    make(file);
    const { registry, notices } = new RegistryStore(configDir).open();
    expect(registry.servers.map((server) => server.name)).toEqual(['kept']);
    expect(notices[0]).toMatchObject({ code: 'store-recovered', message: expect.stringMatching(/not a regular file|more than a registry can be/) });
    expect(fs.lstatSync(file).isFile()).toBe(true);
    const aside = fs.readdirSync(configDir).filter((name) => name.startsWith('config.corrupt-'));
    expect(aside).toHaveLength(1);
  });

  it.each(cases)('%s: a reader (proxy, status) neither hangs nor writes', async (_what, make) => {
    const configDir = await goodRegistry();
    const file = path.join(configDir, CONFIG_FILE);
    fs.rmSync(file);
    make(file);
    const before = fs.readdirSync(configDir).sort();
    const { registry } = new RegistryStore(configDir).open({ repair: false });
    expect(registry.servers.map((server) => server.name)).toEqual(['kept']);
    expect(fs.readdirSync(configDir).sort()).toEqual(before);
  });
});
