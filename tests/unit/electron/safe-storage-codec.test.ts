// The desktop app's codec on Electron's safeStorage (the shared mock), and the app host using it.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { createAppHost } from '../../../electron/main/app-host.js';
import { createSafeStorageCodec } from '../../../electron/main/safe-storage-codec.js';
import { openTransport, SealedSecretError, sealTransport } from '../../../electron/host/secret-codec.js';
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
  it('seals secrets in config.json with safeStorage and keeps them clear in memory', async () => {
    const host = createAppHost(tempDir('mcp-roots-app-'));
    await host.start();
    try {
      await host.addServer({
        name: 'remote',
        transport: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: `Bearer ${SECRET}` } },
        enabled: false,
        sharing: true,
      });
      await vi.waitFor(() => expect(fs.readFileSync(host.store.path, 'utf8')).toMatch(/"Authorization": ?"enc:v1:/));
      expect(fs.readFileSync(host.store.path, 'utf8')).not.toContain(SECRET);
      expect(host.registrySnapshot.servers[0]?.transport).toMatchObject({ headers: { Authorization: `Bearer ${SECRET}` } });
      expect(JSON.stringify(host.getState())).not.toContain(SECRET);
    } finally {
      await host.stop();
    }
  });
});
