// A reversible stand-in for the OS keychain: sealed values do not contain the clear text, and a
// value sealed by another "keychain" (another key) fails to open, as with safeStorage.
import type { SecretCodec } from '../../electron/host/registry/secret-codec.js';

export interface FakeSecretCodec extends SecretCodec {
  encrypted: string[];
}

export function fakeSecretCodec(options: { available?: boolean; key?: number; unavailableReason?: string } = {}): FakeSecretCodec {
  const key = options.key ?? 0x5a;
  const tag = `fake${key}:`;
  const flip = (bytes: Buffer) => Buffer.from(bytes.map((byte) => byte ^ key));
  const encrypted: string[] = [];
  return {
    available: options.available ?? true,
    unavailableReason: options.unavailableReason,
    encrypted,
    encrypt(plain) {
      encrypted.push(plain);
      return Buffer.concat([Buffer.from(tag), flip(Buffer.from(plain, 'utf8'))]).toString('base64');
    },
    decrypt(stored) {
      const bytes = Buffer.from(stored, 'base64');
      if (bytes.subarray(0, tag.length).toString() !== tag) throw new Error('not sealed with this key');
      return flip(bytes.subarray(tag.length)).toString('utf8');
    },
  };
}
