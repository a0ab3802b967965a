// The SecretCodec of plain Node (CLI, `serve`, proxy; the desktop app too, where it works): one
// random 256-bit key per OS user, kept in the OS keychain through @napi-rs/keyring (Secret Service
// on Linux, the Keychain on macOS, the Credential Manager on Windows), and AES-256-GCM with it for
// each value, stored as `enc:k1:<base64 of iv | ciphertext | tag>`. The keychain is asked once, at
// start; every value after that is local crypto.
//
// Where there is no keychain the codec says so (`available: false` with the reason) and secrets
// are stored in clear, as every UI and the CLI then show. Never a silent stand-in: on Linux the
// library would otherwise fall back to the kernel keyring, which forgets the key at reboot and
// with it every secret, so the Secret Service is required by name.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { acquireFileLock } from './file-lock.js';
// registry-file, not registry-store: a proxy loads this without the store and its compiled schema.
import { CONFIG_FILE } from './registry-file.js';
import { KEYRING_PREFIX, type SecretCodec } from './secret-codec.js';

export const KEYRING_SERVICE = 'MCP Roots Manager';
export const KEYRING_ACCOUNT = 'registry-secrets-key';
export const NO_KEYCHAIN = 'No OS keychain is available to this process';

/** The part of @napi-rs/keyring used here (also what tests stand a real store behind). */
export interface KeyringEntry {
  getPassword(signal?: AbortSignal | null): Promise<string | null>;
  setPassword(password: string, signal?: AbortSignal | null): Promise<void>;
}

export interface KeyringCodecOptions {
  service?: string;
  account?: string;
  /** How long the keychain may take to answer (an unlock prompt, a slow D-Bus) before we go without. */
  timeoutMs?: number;
  /** Held while a first key is created, so two processes of one registry never make two keys. */
  lockPath?: string;
  platform?: NodeJS.Platform;
  /** Opens the entry; by default through @napi-rs/keyring. */
  openEntry?: (service: string, account: string) => Promise<KeyringEntry>;
}

async function openNativeEntry(service: string, account: string, platform: NodeJS.Platform): Promise<KeyringEntry> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  return platform === 'linux' ? new AsyncEntry(service, account, { linux: { store: 'secret-service' } }) : new AsyncEntry(service, account);
}

function unavailable(reason: string): SecretCodec {
  const refuse = () => {
    throw new Error(reason);
  };
  return { available: false, unavailableReason: `${NO_KEYCHAIN} (${reason}).`, prefix: KEYRING_PREFIX, encrypt: refuse, decrypt: refuse };
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function aesCodec(key: Buffer): SecretCodec {
  return {
    available: true,
    prefix: KEYRING_PREFIX,
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
    },
    decrypt(stored) {
      const bytes = Buffer.from(stored, 'base64');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value too short');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      // A wrong key (another user's, a re-created keychain) fails the tag check here.
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

function parseKey(stored: string): Buffer | undefined {
  const key = Buffer.from(stored, 'base64');
  return key.length === KEY_BYTES ? key : undefined;
}

/** Opens the keychain once and returns a codec with its key, or an unavailable codec saying why. Never throws. */
export async function openKeyringCodec(options: KeyringCodecOptions = {}): Promise<SecretCodec> {
  const service = options.service ?? KEYRING_SERVICE;
  const account = options.account ?? KEYRING_ACCOUNT;
  const platform = options.platform ?? process.platform;
  const timeoutMs = options.timeoutMs ?? 5_000;
  let entry: KeyringEntry;
  try {
    entry = await (options.openEntry ?? ((s, a) => openNativeEntry(s, a, platform)))(service, account);
  } catch (error) {
    return unavailable(reasonOf(error));
  }
  // Each call also gets a signal, but a store that ignores it must not hold the process up either.
  const ask = <T>(call: (signal: AbortSignal) => Promise<T>) => withTimeout(call(AbortSignal.timeout(timeoutMs)), timeoutMs);
  try {
    const existing = await ask((signal) => entry.getPassword(signal));
    if (existing !== null) {
      const key = parseKey(existing);
      return key ? aesCodec(key) : unavailable('the keychain entry for its key is not a key');
    }
    const release = options.lockPath ? acquireFileLock(options.lockPath, { timeoutMs }) : undefined;
    try {
      // Another process may have made the key while we waited for the lock: use theirs.
      const raced = await ask((signal) => entry.getPassword(signal));
      if (raced === null) await ask((signal) => entry.setPassword(randomBytes(KEY_BYTES).toString('base64'), signal));
    } finally {
      release?.();
    }
    // Read back: what the keychain holds is the key, whatever we meant to write.
    const key = parseKey((await ask((signal) => entry.getPassword(signal))) ?? '');
    return key ? aesCodec(key) : unavailable('the keychain did not keep the key');
  } catch (error) {
    return unavailable(reasonOf(error));
  }
}

/** The codec a process opening the registry in `configDir` uses (first key made under its lock). */
export async function openRegistryCodec(configDir: string, options: Omit<KeyringCodecOptions, 'lockPath'> = {}): Promise<SecretCodec> {
  try {
    fs.mkdirSync(configDir, { recursive: true });
  } catch {
    // The store reports a folder it cannot create; the keychain does not need it.
  }
  return openKeyringCodec({ ...options, lockPath: path.join(configDir, `${CONFIG_FILE}.lock`) });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' })), ms + 100);
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if ((error as Error | undefined)?.name === 'TimeoutError' || /abort/i.test(text)) return 'the keychain did not answer in time';
  // The first line is enough: D-Bus errors run long.
  return text.split('\n')[0]!.slice(0, 200);
}
