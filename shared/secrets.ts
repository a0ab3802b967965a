// Env values, HTTP headers and the secret parts of an HTTP server's URL (`user:password@`,
// `?api_key=…`) may hold tokens: they leave the host only masked. A UI that sends the mask back
// means "keep the stored value".
import type { HttpTransportConfig, TransportConfig } from './domain.js';
import { mapUrlSecrets, urlSecretParts, type UrlSecretPart } from './url-secrets.js';

export const SECRET_MASK = '••••••';

/** Where one secret of a server is kept, as every UI and the CLI show it. */
export type SecretStorage =
  /** Encrypted with a key held by the OS keychain. */
  | 'keychain'
  /** In config.json in clear (mode 0600): this process has no OS keychain. */
  | 'unencrypted'
  /** Encrypted by another process's keychain (the desktop app's, another user's): unreadable here. */
  | 'unreadable';

export interface SecretPlacement {
  kind: 'env' | 'header' | 'url';
  /** The variable or header name; for a URL, `password` or the query parameter's name. */
  name: string;
  storage: SecretStorage;
}

/** In English, for the CLI and logs (the UI has its own words in every language). */
export const SECRET_STORAGE_WORDS: Readonly<Record<SecretStorage, string>> = {
  keychain: 'encrypted, with its key in the OS keychain',
  unencrypted: 'stored unencrypted: no OS keychain available to this process',
  unreadable: 'encrypted by another keychain (the desktop app, another user or machine): cannot be read here',
};

function maskValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(values).map((key) => [key, SECRET_MASK]));
}

/** The URL with its password and key-like query values replaced by the mask. */
export function maskUrl(url: string): string {
  return mapUrlSecrets(url, () => SECRET_MASK);
}

export function maskTransport(transport: TransportConfig): TransportConfig {
  return transport.type === 'stdio'
    ? { ...transport, env: maskValues(transport.env) }
    : { ...transport, url: maskUrl(transport.url), headers: maskValues(transport.headers) };
}

function keepMasked(next: Record<string, string>, previous: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(next).map(([key, value]) => [key, value === SECRET_MASK ? (previous[key] ?? '') : value]),
  );
}

const partKey = (part: UrlSecretPart, nth: number) => `${part.kind}\u0000${part.name}\u0000${nth}`;

function isMask(raw: string): boolean {
  if (raw === SECRET_MASK) return true;
  try {
    return decodeURIComponent(raw) === SECRET_MASK;
  } catch {
    return false;
  }
}

/** Puts the stored URL secrets back where an edited URL still carries the mask (same part, same name). */
function unmaskUrl(next: string, previous: string): string {
  const stored = new Map<string, string>();
  const seen = new Map<string, number>();
  const nthOf = (part: UrlSecretPart) => {
    const base = `${part.kind}\u0000${part.name}`;
    const nth = seen.get(base) ?? 0;
    seen.set(base, nth + 1);
    return nth;
  };
  for (const part of urlSecretParts(previous)) stored.set(partKey(part, nthOf(part)), part.raw);
  seen.clear();
  // A mask with nothing stored behind it becomes empty rather than a literal "••••••" secret.
  return mapUrlSecrets(next, (part) => {
    const nth = nthOf(part);
    return isMask(part.raw) ? (stored.get(partKey(part, nth)) ?? '') : undefined;
  });
}

/** Puts stored secrets back where an edited config still carries the mask. */
export function unmaskTransport(next: TransportConfig, previous: TransportConfig | undefined): TransportConfig {
  if (next.type === 'stdio') {
    if (!previous) return next;
    return { ...next, env: keepMasked(next.env, previous.type === 'stdio' ? previous.env : {}) };
  }
  const before: HttpTransportConfig | undefined = previous && previous.type !== 'stdio' ? previous : undefined;
  if (!previous) return next;
  return { ...next, url: unmaskUrl(next.url, before?.url ?? ''), headers: keepMasked(next.headers, before?.headers ?? {}) };
}
