// Secrets in server configs (env values of stdio servers, header values of HTTP/SSE servers) at
// rest. Where the OS offers a keychain (the desktop app, through Electron's safeStorage) each value
// is stored sealed, as
//
//   enc:v1:<base64 of the ciphertext>
//
// `v1` = encrypted with the OS-user key of this machine (safeStorage: Keychain on macOS, DPAPI on
// Windows, libsecret/KWallet on Linux). Everything else is a plain value. Plain values stay
// accepted (the CLI and `mcp-roots serve` run in plain Node and have no keychain): the app seals
// them at its next start or write. A sealed value is never given to a server as if it were the value: a
// process that cannot decrypt it refuses to start that server with a SealedSecretError.
import type { TransportConfig } from '../../shared/domain.js';
import { SECRET_MASK } from '../../shared/secrets.js';

export const SEALED_PREFIX = 'enc:v1:';

/** The registry schema's limit for one env or header value: a sealed value must fit in it too. */
export const MAX_STORED_VALUE_LENGTH = 65_536;

/**
 * Encrypts and decrypts one value. `encrypt` returns the text stored after SEALED_PREFIX (base64
 * of the ciphertext); `decrypt` takes that text back and throws when it cannot decrypt it.
 */
export interface SecretCodec {
  /** False when the OS offers no real protection: values are then stored as given. */
  readonly available: boolean;
  /** Why `available` is false, in words for a notice. */
  readonly unavailableReason?: string | undefined;
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

/** Thrown when a server is started with a secret this process cannot decrypt. */
export class SealedSecretError extends Error {
  readonly code = 'secret-sealed';

  constructor(
    /** The env variable or header names whose values stay sealed. */
    readonly names: readonly string[],
    readonly kind: 'env' | 'header',
  ) {
    const what = kind === 'env' ? 'environment variable' : 'header';
    super(
      `The ${what}${names.length === 1 ? '' : 's'} ${names.join(', ')}: this secret was encrypted by the desktop app ` +
        'and cannot be decrypted here; start the server there or re-enter it.',
    );
    this.name = 'SealedSecretError';
  }
}

export function isSealed(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

/**
 * Values that carry a `${roots}` placeholder are configuration, not secrets: they stay readable
 * so that the CLI and the proxy, which have no keychain, can still fill in the folders.
 */
function keepsPlain(value: string): boolean {
  return value === '' || value.includes('${roots');
}

function sealValue(name: string, value: string, codec: SecretCodec, tooLong: (name: string) => void): string {
  if (isSealed(value) || keepsPlain(value)) return value;
  const sealed = SEALED_PREFIX + codec.encrypt(value);
  // Past the schema's limit the file would not load again: such a value (tens of kilobytes, not
  // a credential in practice) stays as it is, and the caller says so.
  if (sealed.length > MAX_STORED_VALUE_LENGTH) {
    tooLong(name);
    return value;
  }
  return sealed;
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

function secretsOf(transport: TransportConfig): Record<string, string> {
  return transport.type === 'stdio' ? transport.env : transport.headers;
}

function withSecrets(transport: TransportConfig, secrets: Record<string, string>): TransportConfig {
  if (secrets === secretsOf(transport)) return transport;
  return transport.type === 'stdio' ? { ...transport, env: secrets } : { ...transport, headers: secrets };
}

/**
 * Seals every env or header value that is not sealed yet. Idempotent; returns the same object when
 * nothing changed, and the transport as given when the codec offers no protection. `tooLong` hears
 * of values too long to store sealed: they stay plain.
 */
export function sealTransport(
  transport: TransportConfig,
  codec: SecretCodec,
  tooLong: (name: string) => void = () => undefined,
): TransportConfig {
  if (!codec.available) return transport;
  return withSecrets(transport, mapValues(secretsOf(transport), (name, value) => sealValue(name, value, codec, tooLong)));
}

/**
 * Opens every sealed env or header value. Throws a SealedSecretError naming every value that
 * cannot be decrypted here (no codec, another machine's or user's key): never returns one sealed.
 */
export function openTransport(transport: TransportConfig, codec: SecretCodec | undefined): TransportConfig {
  const unopened: string[] = [];
  const secrets = mapValues(secretsOf(transport), (name, value) => {
    if (!isSealed(value)) return value;
    try {
      if (!codec) throw new Error('no codec');
      return codec.decrypt(value.slice(SEALED_PREFIX.length));
    } catch {
      unopened.push(name);
      return value;
    }
  });
  if (unopened.length > 0) throw new SealedSecretError(unopened, transport.type === 'stdio' ? 'env' : 'header');
  return withSecrets(transport, secrets);
}

/** True when the transport holds a value that would be sealed with an available codec. */
export function hasPlainSecrets(transport: TransportConfig): boolean {
  return Object.values(secretsOf(transport)).some((value) => !isSealed(value) && !keepsPlain(value));
}

/** Shorter pieces ("1", "eu", "Bearer") are too common to hide in a log without hiding everything. */
const MIN_REDACTED_LENGTH = 8;

/**
 * Hides the transport's secret values (and their words, e.g. the token of "Bearer <token>") in a
 * line the server wrote: its stderr goes to the activity log, which every UI shows.
 */
export function redactSecretValues(text: string, transport: TransportConfig): string {
  let redacted = text;
  for (const value of Object.values(secretsOf(transport))) {
    if (isSealed(value) || keepsPlain(value)) continue;
    for (const piece of [value, ...value.split(/\s+/)]) {
      if (piece.length >= MIN_REDACTED_LENGTH && redacted.includes(piece)) redacted = redacted.split(piece).join(SECRET_MASK);
    }
  }
  return redacted;
}
