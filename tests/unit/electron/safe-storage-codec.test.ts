// The desktop app's codec on Electron's safeStorage (the shared mock), and the app host using it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { createAppHost } from '../../../electron/main/app-host.js';
import { createSafeStorageCodec } from '../../../electron/main/safe-storage-codec.js';
import { aesCodec } from '../../../electron/host/registry/keyring-codec.js';
import { RootsHost } from '../../../electron/host/roots-host.js';
import {
  combineCodecs,
  KEYRING_PREFIX,
  openTransport,
  SealedSecretError,
  sealTransport,
  type SecretCodec,
} from '../../../electron/host/registry/secret-codec.js';
import type { TransportConfig } from '../../../shared/domain.js';
import { removeTempDirs, tempDir } from '../../support/index.js';
import { electronMock, resetElectronMock } from './electron-mock.js';

const { safeStorage } = electronMock;
const SECRET = 'ghp_abcdefghijklmnop';

beforeEach(resetElectronMock);
afterEach(removeTempDirs);

describe('the safeStorage codec', () => {
  it('encrypts with safeStorage to base64 and decrypts back', () => {
    const codec = createSafeStorageCodec(undefined, 'linux');
    expect(codec.available).toBe(true);
    const stored = codec.encrypt(SECRET);
    expect(stored).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(stored, 'base64').toString('utf8')).not.toContain(SECRET);
    expect(safeStorage.encryptString).toHaveBeenCalledWith(SECRET);
    expect(codec.decrypt(stored)).toBe(SECRET);
  });

  it('is unavailable, with a reason, when the keychain is not available', () => {
    safeStorage.isEncryptionAvailable.mockReturnValue(false);
    const codec = createSafeStorageCodec(undefined, 'darwin');
    expect(codec.available).toBe(false);
    expect(codec.unavailableReason).toMatch(/keychain is not available/);
    expect(() => codec.decrypt('AAAA')).toThrow();
  });

  it("treats Linux's basic_text store (a built-in key) as no protection", () => {
    safeStorage.getSelectedStorageBackend.mockReturnValue('basic_text');
    const codec = createSafeStorageCodec(undefined, 'linux');
    expect(codec.available).toBe(false);
    expect(codec.unavailableReason).toMatch(/No system keyring/);
    // Only Linux has storage backends: elsewhere the question is not asked.
    expect(createSafeStorageCodec(undefined, 'win32').available).toBe(true);
  });

  it('a value safeStorage cannot decrypt becomes a SealedSecretError when the server starts', () => {
    const codec = createSafeStorageCodec(undefined, 'linux');
    const sealed = sealTransport({ type: 'sse', url: 'https://example.test/sse', headers: { Authorization: SECRET } }, codec);
    safeStorage.decryptString.mockImplementation(() => {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    });
    expect(() => openTransport(sealed, codec)).toThrow(SealedSecretError);
  });
});

describe('the app host', () => {
  it('seals secrets in config.json (with the keychain key where this process reaches one, else safeStorage) and keeps them clear in memory', async () => {
    const host = await createAppHost(tempDir('mcp-roots-app-'));
    await host.start();
    try {
      await host.addServer({
        name: 'remote',
        transport: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: `Bearer ${SECRET}` } },
        enabled: false,
        sharing: true,
      });
      await vi.waitFor(() => expect(fs.readFileSync(host.store.path, 'utf8')).toMatch(/"Authorization": ?"enc:(v1|k1):/));
      expect(fs.readFileSync(host.store.path, 'utf8')).not.toContain(SECRET);
      expect(host.registrySnapshot.servers[0]?.transport).toMatchObject({ headers: { Authorization: `Bearer ${SECRET}` } });
      expect(JSON.stringify(host.getState())).not.toContain(SECRET);
    } finally {
      await host.stop();
    }
  });
});

describe('the app and plain Node share secrets', () => {
  // The keychain-held key of keyring-codec.ts, here a fresh random key: the codec code is the real one.
  const nodeKey = randomBytes(32);

  it('the app reads what the CLI sealed, re-seals what safeStorage sealed with the shared key, and the CLI then reads it', async () => {
    const configDir = tempDir('mcp-roots-coexist-');
    const safe = createSafeStorageCodec(undefined, 'linux');
    // An older app version sealed A with safeStorage; the CLI (plain Node) sealed B with the keychain key.
    const seeded = new RootsHost({ configDir, secrets: safe, runServers: false });
    await seeded.start();
    await seeded.addServer({ name: 'a', transport: { type: 'stdio', command: 'x', args: [], env: { A: 'secret-a-123' } }, enabled: false, sharing: true });
    await seeded.stop();
    const cli = new RootsHost({ configDir, secrets: aesCodec(nodeKey), runServers: false });
    await cli.start();
    await cli.addServer({ name: 'b', transport: { type: 'stdio', command: 'x', args: [], env: { B: 'secret-b-456' } }, enabled: false, sharing: true });
    // The CLI cannot read safeStorage's A: it is left sealed, and named as unreadable.
    expect(cli.getState().servers.find((server) => server.name === 'a')?.secrets).toEqual([{ kind: 'env', name: 'A', storage: 'unreadable' }]);
    await cli.stop();
    const onDisk = fs.readFileSync(path.join(configDir, 'config.json'), 'utf8');
    expect(onDisk).toMatch(/"A": ?"enc:v1:/);
    expect(onDisk).toMatch(/"B": ?"enc:k1:/);

    // The app, with both codecs: reads both, and writes A back under the shared key.
    const app = await createAppHost(configDir, { secrets: combineCodecs([aesCodec(nodeKey), safe]) });
    await app.start();
    const env = (name: string) => (app.registrySnapshot.servers.find((server) => server.name === name)?.transport as { env: Record<string, string> }).env;
    expect(env('a')).toEqual({ A: 'secret-a-123' });
    expect(env('b')).toEqual({ B: 'secret-b-456' });
    await app.stop();
    const after = fs.readFileSync(path.join(configDir, 'config.json'), 'utf8');
    expect(after).toMatch(/"A": ?"enc:k1:/);
    expect(after).not.toContain('secret-a-123');

    // Now the CLI reads A too.
    const cliAgain = new RootsHost({ configDir, secrets: aesCodec(nodeKey), runServers: false });
    await cliAgain.start();
    expect(cliAgain.getState().servers.flatMap((server) => server.secrets ?? []).map((placement) => placement.storage)).toEqual(['keychain', 'keychain']);
    expect((cliAgain.registrySnapshot.servers.find((server) => server.name === 'a')?.transport as { env: Record<string, string> }).env).toEqual({
      A: 'secret-a-123',
    });
    await cliAgain.stop();
  });

  it('without the shared key the app keeps sealing with safeStorage, and the CLI gives the per-variable error', async () => {
    const configDir = tempDir('mcp-roots-coexist-');
    const app = await createAppHost(configDir, { secrets: combineCodecs([unavailableKeychain(), createSafeStorageCodec(undefined, 'linux')]) });
    await app.start();
    await app.addServer({ name: 'a', transport: { type: 'stdio', command: 'x', args: [], env: { TOKEN: 'secret-a-123' } }, enabled: false, sharing: true });
    await app.stop();
    expect(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).toMatch(/"TOKEN": ?"enc:v1:/);
    const sealed = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { servers: { transport: TransportConfig }[] };
    expect(() => openTransport(sealed.servers[0]!.transport, aesCodec(nodeKey))).toThrow(
      'The environment variable TOKEN: this secret was encrypted by the desktop app and cannot be decrypted here',
    );
  });
});

function unavailableKeychain(): SecretCodec {
  const refuse = () => {
    throw new Error('no keychain');
  };
  return { available: false, unavailableReason: 'No OS keychain is available to this process.', prefix: KEYRING_PREFIX, encrypt: refuse, decrypt: refuse };
}
