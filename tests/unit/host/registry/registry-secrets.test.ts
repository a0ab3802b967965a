// The registry file with a keychain: secrets sealed on disk (config.json and its last good copy),
// clear in memory; plain values from the CLI sealed at the next start; never downgraded to clear.
import { KEYCHAIN_STEPS, keychainGap } from '../../../../electron/host/registry/registry-secrets.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serialize } from '../../../../electron/host/registry/registry-serialize.js';
import { CONFIG_FILE, LAST_GOOD_FILE, parseRegistry, RegistryStore } from '../../../../electron/host/registry/registry-store.js';
import { SEALED_PREFIX } from '../../../../electron/host/registry/secret-codec.js';
import type { Registry, StdioTransportConfig } from '../../../../shared/domain.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';
import { fakeSecretCodec } from '../../../support/fake-secret-codec.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(removeTempDirs);

const SECRET = 'sk-live-0123456789';

function withServer(env: Record<string, string>, headers: Record<string, string> = {}): Registry {
  const base = { enabled: true, sharing: true, sandbox: true, network: true, askForFolders: true, addedAt: '2026-01-01T00:00:00.000Z' };
  return {
    ...emptyRegistry(),
    servers: [
      { ...base, id: 's1', name: 'stdio', transport: { type: 'stdio', command: 'node', args: [], env } },
      { ...base, id: 's2', name: 'remote', transport: { type: 'http', url: 'https://example.test/mcp', headers } },
    ],
    grants: { s1: {}, s2: {} },
  };
}

const fileText = (dir: string, name = CONFIG_FILE) => fs.readFileSync(path.join(dir, name), 'utf8');
const envOf = (registry: Registry) => (registry.servers[0]?.transport as StdioTransportConfig).env;

describe('registry secrets at rest', () => {
  it('writes sealed values, reads them back clear, and keeps the last good copy sealed too', async () => {
    const dir = tempDir();
    const store = new RegistryStore(dir, fakeSecretCodec());
    store.open();
    const registry = withServer({ API_KEY: SECRET }, { Authorization: `Bearer ${SECRET}` });
    await store.write(registry);
    expect(fileText(dir)).not.toContain(SECRET);
    expect(fileText(dir)).toContain(SEALED_PREFIX);
    // The file stays a valid registry for every reader (CLI, serve): only the values are sealed.
    expect(envOf(parseRegistry(fileText(dir)).registry).API_KEY).toMatch(/^enc:v1:/);

    const again = new RegistryStore(dir, fakeSecretCodec());
    const { registry: loaded, notices } = again.open();
    expect(loaded).toEqual(registry);
    expect(notices).toEqual([]);
    expect(fileText(dir, LAST_GOOD_FILE)).not.toContain(SECRET);
  });

  it('does not re-encrypt unchanged secrets on every write', async () => {
    const dir = tempDir();
    const codec = fakeSecretCodec();
    const store = new RegistryStore(dir, codec);
    const registry = withServer({ API_KEY: SECRET });
    store.open();
    await store.write(registry);
    await store.write({ ...registry, settings: { ...registry.settings, theme: 'dark' } });
    await store.write({ ...registry, roots: [] });
    // A rename gives new server records, with the same transport objects.
    await store.write({ ...registry, servers: registry.servers.map((server) => ({ ...server, name: `${server.name}!` })) });
    expect(codec.encrypted).toEqual([SECRET]);
  });

  it('seals plain values written by the CLI (no keychain) at the next start', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, CONFIG_FILE), serialize(withServer({ API_KEY: SECRET })));
    const { registry } = new RegistryStore(dir, fakeSecretCodec()).open();
    expect(envOf(registry).API_KEY).toBe(SECRET);
    expect(fileText(dir)).not.toContain(SECRET);
  });

  it('a store without a codec (CLI, serve) keeps sealed values sealed and writes them back unchanged', async () => {
    const dir = tempDir();
    const app = new RegistryStore(dir, fakeSecretCodec());
    app.open();
    await app.write(withServer({ API_KEY: SECRET }));
    const sealedText = envOf(parseRegistry(fileText(dir)).registry).API_KEY;

    const cli = new RegistryStore(dir);
    const { registry } = cli.open();
    expect(envOf(registry).API_KEY).toBe(sealedText);
    await cli.write({ ...registry, settings: { ...registry.settings, locale: 'de' } });
    expect(envOf(parseRegistry(fileText(dir)).registry).API_KEY).toBe(sealedText);
  });

  it('a value sealed with another key stays sealed in memory and on disk, with a notice', async () => {
    const dir = tempDir();
    const elsewhere = new RegistryStore(dir, fakeSecretCodec({ key: 1 }));
    elsewhere.open();
    await elsewhere.write(withServer({ API_KEY: SECRET }));
    const sealedText = envOf(parseRegistry(fileText(dir)).registry).API_KEY;

    const here = new RegistryStore(dir, fakeSecretCodec({ key: 2 }));
    const { registry, notices } = here.open();
    expect(envOf(registry).API_KEY).toBe(sealedText);
    expect(notices).toEqual([expect.objectContaining({ code: 'secrets-unreadable', message: expect.stringContaining('stdio') })]);
    await here.write(registry);
    expect(envOf(parseRegistry(fileText(dir)).registry).API_KEY).toBe(sealedText);
  });

  it('without real protection (no keychain, Linux basic_text) writes clear values and says so once', async () => {
    const dir = tempDir();
    const store = new RegistryStore(dir, fakeSecretCodec({ available: false, unavailableReason: 'No keyring.' }));
    const notices: string[] = [];
    store.open();
    for (const notice of await store.write(withServer({ API_KEY: SECRET }))) notices.push(notice.code);
    for (const notice of await store.write(withServer({ API_KEY: SECRET, MORE: 'x' }))) notices.push(notice.code);
    expect(fileText(dir)).toContain(SECRET);
    expect(notices).toEqual(['secrets-unprotected']);
    // And at the next start, as a start-up notice.
    const next = new RegistryStore(dir, fakeSecretCodec({ available: false, unavailableReason: 'No keyring.' })).open();
    expect(next.notices).toEqual([expect.objectContaining({ code: 'secrets-unprotected', message: expect.stringContaining('No keyring.') })]);
  });

  it('says the next step for what is missing: no D-Bus session, or no Secret Service on it (#30 item 4)', () => {
    expect(keychainGap('Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead')).toBe('no-session');
    expect(keychainGap('Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files')).toBe('no-service');
    expect(keychainGap('No keyring.')).toBeUndefined();
    expect(KEYCHAIN_STEPS['no-session']).toContain('dbus-run-session');
  });

  it('keeps a value too long to seal as it is (the file must load again) and says so once', async () => {
    const dir = tempDir();
    const store = new RegistryStore(dir, fakeSecretCodec());
    const notices: string[] = [];
    store.open();
    const registry = withServer({ HUGE: 'x'.repeat(60_000), API_KEY: SECRET });
    for (const next of [registry, { ...registry, settings: { ...registry.settings, theme: 'dark' as const } }, { ...registry, roots: [] }]) {
      for (const notice of await store.write(next)) notices.push(notice.code);
    }
    expect(notices).toEqual(['secrets-too-long']);
    expect(fileText(dir)).not.toContain(SECRET);
    expect(envOf(new RegistryStore(dir, fakeSecretCodec()).open().registry).HUGE).toHaveLength(60_000);
  });

  it('never writes back in clear a value that was read sealed, even when sealing is off', async () => {
    const dir = tempDir();
    const app = new RegistryStore(dir, fakeSecretCodec());
    app.open();
    await app.write(withServer({ API_KEY: SECRET }));
    // Decrypts with the same key, but reports no protection for new values (e.g. keychain locked).
    const degraded = new RegistryStore(dir, fakeSecretCodec({ available: false }));
    const { registry } = degraded.open();
    expect(envOf(registry).API_KEY).toBe(SECRET);
    await degraded.write({ ...registry, settings: { ...registry.settings, theme: 'light' } });
    expect(fileText(dir)).not.toContain(SECRET);
  });
});
