// The desktop app's SecretCodec: Electron's safeStorage (Keychain on macOS, DPAPI on Windows,
// libsecret or KWallet on Linux). Created after `app` is ready: before that, Linux reports no
// encryption and no storage backend.
import { safeStorage } from 'electron';
import type { SecretCodec } from '../host/registry/secret-codec.js';

type SafeStorage = Pick<
  typeof safeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
>;

/** Why safeStorage gives no real protection here, or undefined when it does. */
function unprotectedReason(storage: SafeStorage, platform: NodeJS.Platform): string | undefined {
  if (!storage.isEncryptionAvailable()) return 'The system keychain is not available.';
  // Linux without a keyring: Chromium falls back to a key built into every copy of it, which
  // hides nothing from anyone who can read the file.
  if (platform === 'linux' && storage.getSelectedStorageBackend() === 'basic_text') {
    return 'No system keyring (GNOME Keyring, KWallet) was found, and Electron\'s fallback key protects nothing.';
  }
  return undefined;
}

export function createSafeStorageCodec(storage: SafeStorage = safeStorage, platform: NodeJS.Platform = process.platform): SecretCodec {
  const reason = unprotectedReason(storage, platform);
  return {
    available: reason === undefined,
    unavailableReason: reason,
    encrypt: (plain) => storage.encryptString(plain).toString('base64'),
    decrypt: (stored) => {
      // Still tried when sealing is off: a value sealed earlier may be readable (and is then kept sealed).
      if (!storage.isEncryptionAvailable()) throw new Error('safeStorage is not available');
      return storage.decryptString(Buffer.from(stored, 'base64'));
    },
  };
}
