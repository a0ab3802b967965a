// Secrets in server configs at rest: env values of stdio servers, header values of HTTP/SSE
// servers, and the secret parts of their URLs (`user:password@`, key-like query values). Where a
// keychain is available each value is stored sealed, as
//
//   enc:v1:<base64>   sealed by the desktop app with Electron's safeStorage (Keychain on macOS,
//                     DPAPI on Windows, libsecret/KWallet on Linux)
//   enc:k1:<base64>   sealed from plain Node (CLI, serve, proxy, and the app where it can) with a
//                     key kept in the OS keychain (keyring-codec.ts)
//
// In a URL the sealed text is percent-encoded in place of the raw value. Everything else is a plain
// value, accepted as such (a process without a keychain stores clear values, and says so). A sealed
// value is never given to a server as if it were the value: a process that cannot open it refuses
// to start that server with a SealedSecretError naming the variable.
import type { HttpTransportConfig, TransportConfig } from '../../../shared/domain.js';
import { SECRET_MASK, type SecretPlacement } from '../../../shared/secrets.js';
import { decodedSecret, mapUrlSecrets, urlSecretParts } from '../../../shared/url-secrets.js';

/** Electron safeStorage's values (the desktop app). */
export const SEALED_PREFIX = 'enc:v1:';
/** Values sealed with the keychain-held key of keyring-codec.ts. */
export const KEYRING_PREFIX = 'enc:k1:';
const PREFIXES = [SEALED_PREFIX, KEYRING_PREFIX] as const;

/** The registry schema's limit for one env or header value: a sealed value must fit in it too. */
export const MAX_STORED_VALUE_LENGTH = 65_536;
/** The registry schema's limit for a URL. */
export const MAX_STORED_URL_LENGTH = 8192;

/**
 * Encrypts and decrypts one value. `encrypt` returns the text stored after the codec's prefix
 * (base64 of the ciphertext); `decrypt` takes that text back and throws when it cannot.
 */
export interface SecretCodec {
  /** False when the OS offers no real protection: values are then stored as given. */
  readonly available: boolean;
  /** Why `available` is false, in words for a notice. */
  readonly unavailableReason?: string | undefined;
  /** What the values it seals start with; SEALED_PREFIX (safeStorage) when absent. */
  readonly prefix?: string;
  encrypt(plain: string): string;
  decrypt(stored: string): string;
  /** Set by combineCodecs: the member that opens values with this prefix. */
  codecFor?(prefix: string): SecretCodec | undefined;
}

/**
 * Several codecs as one: the first available one seals (else the first, unavailable, speaks for
 * the set), and each value is opened by the member whose prefix it carries. The desktop app uses
 * it so that it reads what the CLI sealed and the CLI reads what the app seals from now on.
 */
export function combineCodecs(codecs: readonly SecretCodec[]): SecretCodec {
  const writer = codecs.find((codec) => codec.available) ?? codecs[0];
  if (!writer) throw new Error('combineCodecs needs at least one codec');
  return {
    available: writer.available,
    unavailableReason: writer.unavailableReason,
    prefix: prefixOfCodec(writer),
    encrypt: (plain) => writer.encrypt(plain),
    decrypt: (stored) => writer.decrypt(stored),
    codecFor: (prefix) => codecs.find((codec) => prefixOfCodec(codec) === prefix),
  };
}

/** The prefix of the values a codec (or a combined set's writer) seals. */
export function prefixOfCodec(codec: SecretCodec): string {
  return codec.prefix ?? SEALED_PREFIX;
}

function readerFor(codec: SecretCodec | undefined, prefix: string): SecretCodec | undefined {
  if (!codec) return undefined;
  if (codec.codecFor) return codec.codecFor(prefix);
  return prefixOfCodec(codec) === prefix ? codec : undefined;
}

/** Thrown when a server is started with a secret this process cannot decrypt. */
export class SealedSecretError extends Error {
  readonly code = 'secret-sealed';

  constructor(
    /** The env variable or header names, or `URL password` / `URL parameter X`, whose values stay sealed. */
    readonly names: readonly string[],
    readonly kind: 'env' | 'header',
    /** Whose seal: the desktop app's safeStorage, or a keychain key this process cannot reach. */
    readonly sealedBy: 'desktop-app' | 'other-keychain' = 'desktop-app',
  ) {
    const inUrl = names.filter((name) => name.startsWith('URL '));
    const noun = kind === 'env' ? 'environment variable' : inUrl.length === names.length ? 'URL secret' : inUrl.length > 0 ? 'secret' : 'header';
    const by =
      sealedBy === 'desktop-app'
        ? 'this secret was encrypted by the desktop app and cannot be decrypted here'
        : "this secret was encrypted with another keychain's key (another user or machine) and cannot be decrypted here";
    super(`The ${noun}${names.length === 1 ? '' : 's'} ${names.join(', ')}: ${by}; start the server there or re-enter it.`);
    this.name = 'SealedSecretError';
  }
}

function prefixOf(value: string): string | undefined {
  return PREFIXES.find((prefix) => value.startsWith(prefix));
}

export function isSealed(value: string): boolean {
  return prefixOf(value) !== undefined;
}

/**
 * Values that carry a `${roots}` placeholder are configuration, not secrets: they stay readable
 * so that the CLI and the proxy, which may have no keychain, can still fill in the folders.
 */
function keepsPlain(value: string): boolean {
  return value === '' || value.includes('${roots');
}

/** Maps the values of a record; returns the very same record when no value changed. */
function mapValues(values: Record<string, string>, map: (name: string, value: string) => string): Record<string, string> {
  let changed = false;
  const next: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const mapped = map(name, value);
    if (mapped !== value) changed = true;
    next[name] = mapped;
  }
  return changed ? next : values;
}

/** Maps the env or header values, and for HTTP servers the URL's secret parts (raw text in, raw out). */
function mapSecrets(transport: TransportConfig, map: (name: string, value: string, inUrl: boolean) => string): TransportConfig {
  if (transport.type === 'stdio') {
    const env = mapValues(transport.env, (name, value) => map(name, value, false));
    return env === transport.env ? transport : { ...transport, env };
  }
  const headers = mapValues(transport.headers, (name, value) => map(name, value, false));
  const url = mapUrlSecrets(transport.url, (part) => map(urlPartName(part.kind, part.name), part.raw, true));
  if (headers === transport.headers && url === transport.url) return transport;
  return { ...transport, headers, url };
}

function urlPartName(kind: 'password' | 'query', name: string): string {
  return kind === 'password' ? 'URL password' : `URL parameter ${name}`;
}

interface SecretEntry {
  kind: SecretPlacement['kind'];
  name: string;
  /** The value as it reads (a URL part percent-decoded, so a sealed one starts with its prefix). */
  value: string;
}

function secretEntries(transport: TransportConfig): SecretEntry[] {
  if (transport.type === 'stdio') return Object.entries(transport.env).map(([name, value]) => ({ kind: 'env', name, value }));
  return [
    ...Object.entries(transport.headers).map(([name, value]) => ({ kind: 'header' as const, name, value })),
    ...urlSecretParts(transport.url).map((part) => ({
      kind: 'url' as const,
      name: part.kind === 'password' ? 'password' : part.name,
      value: decodedSecret(part),
    })),
  ];
}

/** A URL part holds its sealed text percent-encoded; an env or header value holds it as is. */
function storedForm(value: string, inUrl: boolean): string {
  if (!inUrl) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Seals every secret that is not sealed yet. Idempotent; returns the same object when nothing
 * changed, and the transport as given when the codec offers no protection. `tooLong` hears of
 * values too long to store sealed: they stay plain.
 */
export function sealTransport(
  transport: TransportConfig,
  codec: SecretCodec,
  tooLong: (name: string) => void = () => undefined,
): TransportConfig {
  if (!codec.available) return transport;
  const prefix = prefixOfCodec(codec);
  const sealed = mapSecrets(transport, (name, value, inUrl) => {
    if (isSealed(storedForm(value, inUrl)) || keepsPlain(value)) return value;
    const text = prefix + codec.encrypt(value);
    if (inUrl) return encodeURIComponent(text);
    // Past the schema's limit the file would not load again: such a value (tens of kilobytes, not
    // a credential in practice) stays as it is, and the caller says so.
    if (text.length > MAX_STORED_VALUE_LENGTH) {
      tooLong(name);
      return value;
    }
    return text;
  });
  if (sealed.type !== 'stdio' && transport.type !== 'stdio' && sealed.url.length > MAX_STORED_URL_LENGTH) {
    tooLong('URL');
    return { ...sealed, url: transport.url };
  }
  return sealed;
}

/**
 * Opens every sealed secret. Throws a SealedSecretError naming every value that cannot be
 * decrypted here (no codec, another machine's or user's key): never returns one sealed.
 */
export function openTransport(transport: TransportConfig, codec: SecretCodec | undefined): TransportConfig {
  const unopened: string[] = [];
  let onlyDesktop = true;
  const opened = mapSecrets(transport, (name, value, inUrl) => {
    const stored = storedForm(value, inUrl);
    const prefix = prefixOf(stored);
    if (prefix === undefined) return value;
    try {
      const reader = readerFor(codec, prefix);
      if (!reader) throw new Error('no codec for this prefix');
      return reader.decrypt(stored.slice(prefix.length));
    } catch {
      unopened.push(name);
      if (prefix !== SEALED_PREFIX) onlyDesktop = false;
      return value;
    }
  });
  if (unopened.length > 0) {
    throw new SealedSecretError(unopened, transport.type === 'stdio' ? 'env' : 'header', onlyDesktop ? 'desktop-app' : 'other-keychain');
  }
  return opened;
}

/** True when opening the transport needs a codec: it holds a sealed value (openTransport asks a codec for each). */
export function hasSealedSecrets(transport: TransportConfig): boolean {
  let sealed = false;
  mapSecrets(transport, (_name, value, inUrl) => {
    if (isSealed(storedForm(value, inUrl))) sealed = true;
    return value;
  });
  return sealed;
}

/**
 * True when the transport holds a secret that a codec sealing with `writerPrefix` would seal: one
 * in clear, or (given a prefix) one sealed by another codec that would be re-sealed with this one.
 */
export function hasPlainSecrets(transport: TransportConfig, writerPrefix?: string): boolean {
  return secretEntries(transport).some(({ value }) => {
    if (keepsPlain(value)) return false;
    const prefix = prefixOf(value);
    return prefix === undefined || (writerPrefix !== undefined && prefix !== writerPrefix);
  });
}

/** Where each of the transport's secrets is kept, for the UIs and the CLI (`${roots}` values are not secrets). */
export function secretPlacements(transport: TransportConfig, codec: SecretCodec | undefined): SecretPlacement[] {
  return secretEntries(transport)
    .filter(({ value }) => !keepsPlain(value))
    .map(({ kind, name, value }) => ({
      kind,
      name,
      storage: isSealed(value) ? 'unreadable' : codec?.available ? 'keychain' : 'unencrypted',
    }));
}

/** Shorter pieces ("1", "eu", "Bearer") are too common to hide in a log without hiding everything. */
const MIN_REDACTED_LENGTH = 8;

/**
 * Hides the transport's secret values (and their words, e.g. the token of "Bearer <token>") in a
 * line the server wrote: its stderr goes to the activity log, which every UI shows.
 */
export function redactSecretValues(text: string, transport: TransportConfig): string {
  let redacted = text;
  const values = secretEntries(transport).map(({ value }) => value);
  // A URL secret may be printed as written (percent-encoded) or decoded.
  if (transport.type !== 'stdio') values.push(...urlSecretParts((transport as HttpTransportConfig).url).map((part) => part.raw));
  for (const value of values) {
    if (isSealed(value) || keepsPlain(value)) continue;
    for (const piece of [value, ...value.split(/\s+/)]) {
      if (piece.length >= MIN_REDACTED_LENGTH && redacted.includes(piece)) redacted = redacted.split(piece).join(SECRET_MASK);
    }
  }
  return redacted;
}
