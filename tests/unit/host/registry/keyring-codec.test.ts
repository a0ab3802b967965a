// The plain-Node keychain codec: AES-256-GCM under a key the OS keychain holds. Where there is no
// keychain (this machine has no Secret Service) it says so instead of inventing one.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { aesCodec, NO_KEYCHAIN, openKeyringCodec, type KeyringEntry } from '../../../../electron/host/registry/keyring-codec.js';
import { KEYRING_PREFIX } from '../../../../electron/host/registry/secret-codec.js';

const savedBus = process.env.DBUS_SESSION_BUS_ADDRESS;
afterEach(() => {
  if (savedBus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
  else process.env.DBUS_SESSION_BUS_ADDRESS = savedBus;
});

describe('aesCodec', () => {
  it('seals with a fresh IV each time, opens with the same key only, and detects tampering', () => {
    const codec = aesCodec(randomBytes(32));
    expect(codec).toMatchObject({ available: true, prefix: KEYRING_PREFIX });
    const a = codec.encrypt('sk-live-123');
    const b = codec.encrypt('sk-live-123');
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64').toString('latin1')).not.toContain('sk-live-123');
    expect(codec.decrypt(a)).toBe('sk-live-123');
    expect(() => aesCodec(randomBytes(32)).decrypt(a)).toThrow();
    const tampered = Buffer.from(a, 'base64');
    tampered[14]! ^= 1;
    expect(() => codec.decrypt(tampered.toString('base64'))).toThrow();
  });
});

describe('openKeyringCodec', () => {
  it('with the real library and no Secret Service to reach: unavailable, saying why, never a stand-in store', async () => {
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/mcp-roots-test-bus';
    const codec = await openKeyringCodec({ service: 'mcp-roots-test', account: 'nobody', platform: 'linux' });
    expect(codec.available).toBe(false);
    expect(codec.unavailableReason).toMatch(new RegExp(`^${NO_KEYCHAIN} \\(.+\\)\\.$`));
    expect(() => codec.encrypt('x')).toThrow();
  });

  it('a keychain that never answers (a locked keyring waiting on a prompt) is given up after the timeout', async () => {
    const stuck: KeyringEntry = { getPassword: () => new Promise(() => {}), setPassword: () => new Promise(() => {}) };
    const codec = await openKeyringCodec({ openEntry: async () => stuck, timeoutMs: 200 });
    expect(codec).toMatchObject({ available: false, unavailableReason: `${NO_KEYCHAIN} (the keychain did not answer in time).` });
  });

  it('makes the key once and reuses it; a malformed entry is refused rather than used', async () => {
    let stored: string | null = null;
    const entry: KeyringEntry = {
      getPassword: async () => stored,
      setPassword: async (password) => void (stored = password),
    };
    const first = await openKeyringCodec({ openEntry: async () => entry });
    const sealed = first.encrypt('secret');
    expect(Buffer.from(stored ?? '', 'base64')).toHaveLength(32);
    const second = await openKeyringCodec({ openEntry: async () => entry });
    expect(second.decrypt(sealed)).toBe('secret');
    stored = 'not-a-key';
    expect(await openKeyringCodec({ openEntry: async () => entry })).toMatchObject({ available: false });
  });
});
