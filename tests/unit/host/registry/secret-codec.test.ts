// sealTransport / openTransport: every env and header value sealed as enc:v1:<base64>, opened
// back, idempotent, and a value that cannot be opened is a typed error, never passed on sealed.
import { describe, expect, it } from 'vitest';
import {
  hasPlainSecrets,
  isSealed,
  MAX_STORED_VALUE_LENGTH,
  openTransport,
  redactSecretValues,
  SEALED_PREFIX,
  SealedSecretError,
  sealTransport,
  secretPlacements,
} from '../../../../electron/host/registry/secret-codec.js';
import { SECRET_MASK } from '../../../../shared/secrets.js';
import type { HttpTransportConfig, StdioTransportConfig } from '../../../../shared/domain.js';
import { fakeSecretCodec } from '../../../support/fake-secret-codec.js';

const stdio = (env: Record<string, string>): StdioTransportConfig => ({ type: 'stdio', command: 'node', args: ['server.js'], env });
const http = (headers: Record<string, string>): HttpTransportConfig => ({ type: 'http', url: 'https://example.test/mcp', headers });

describe('secret codec', () => {
  it('seals every env value as enc:v1:<base64> and opens it back', () => {
    const codec = fakeSecretCodec();
    const plain = stdio({ API_KEY: 'sk-live-123', REGION: 'eu' });
    const sealed = sealTransport(plain, codec) as StdioTransportConfig;
    expect(Object.values(sealed.env).every((value) => value.startsWith(SEALED_PREFIX))).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('sk-live-123');
    expect(sealed.env.API_KEY?.slice(SEALED_PREFIX.length)).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(sealed.args).toEqual(plain.args);
    expect(openTransport(sealed, codec)).toEqual(plain);
  });

  it('seals and opens header values of HTTP and SSE servers', () => {
    const codec = fakeSecretCodec();
    for (const type of ['http', 'sse'] as const) {
      const plain = { ...http({ Authorization: 'Bearer t0ken' }), type };
      const sealed = sealTransport(plain, codec) as HttpTransportConfig;
      expect(isSealed(sealed.headers.Authorization ?? '')).toBe(true);
      expect(sealed.url).toBe(plain.url);
      expect(openTransport(sealed, codec)).toEqual(plain);
    }
  });

  it('is idempotent: sealed values stay as they are, and nothing to do returns the same object', () => {
    const codec = fakeSecretCodec();
    const sealed = sealTransport(stdio({ A: 'one' }), codec);
    expect(sealTransport(sealed, codec)).toBe(sealed);
    expect(codec.encrypted).toEqual(['one']);
    const none = stdio({});
    expect(sealTransport(none, codec)).toBe(none);
    expect(openTransport(none, codec)).toBe(none);
    const plain = stdio({ B: 'two' });
    expect(openTransport(plain, codec)).toBe(plain);
  });

  it('accepts a mix of sealed and plain values (a CLI edit) and seals only the plain ones', () => {
    const codec = fakeSecretCodec();
    const sealedA = (sealTransport(stdio({ A: 'one' }), codec) as StdioTransportConfig).env.A as string;
    const mixed = stdio({ A: sealedA, B: 'two' });
    expect(hasPlainSecrets(mixed)).toBe(true);
    const sealed = sealTransport(mixed, codec) as StdioTransportConfig;
    expect(sealed.env.A).toBe(sealedA);
    expect(isSealed(sealed.env.B ?? '')).toBe(true);
    expect(hasPlainSecrets(sealed)).toBe(false);
    expect(openTransport(sealed, codec)).toEqual(stdio({ A: 'one', B: 'two' }));
  });

  it('keeps empty values and ${roots} placeholders readable (configuration, filled in by the CLI and proxy too)', () => {
    const codec = fakeSecretCodec();
    const transport = stdio({ EMPTY: '', DIRS: '${roots}', LIST: 'x=${roots:,}' });
    expect(sealTransport(transport, codec)).toBe(transport);
    expect(hasPlainSecrets(transport)).toBe(false);
  });

  it('leaves everything as given when the codec offers no protection', () => {
    const codec = fakeSecretCodec({ available: false });
    const transport = stdio({ TOKEN: 'x' });
    expect(sealTransport(transport, codec)).toBe(transport);
    expect(codec.encrypted).toEqual([]);
  });

  it('keeps a value that would not fit the schema once sealed, and says which', () => {
    const codec = fakeSecretCodec();
    const tooLong: string[] = [];
    const huge = 'x'.repeat(MAX_STORED_VALUE_LENGTH - 10);
    const sealed = sealTransport(stdio({ BIG: huge, SMALL: 's' }), codec, (name) => tooLong.push(name)) as StdioTransportConfig;
    expect(tooLong).toEqual(['BIG']);
    expect(sealed.env.BIG).toBe(huge);
    expect(isSealed(sealed.env.SMALL ?? '')).toBe(true);
  });

  it('a sealed value without a codec (CLI, serve, proxy) is a SealedSecretError naming it, not the sealed text', () => {
    const sealed = sealTransport(stdio({ API_KEY: 'k', OTHER: 'o', PLAIN_OK: '' }), fakeSecretCodec());
    let error: unknown;
    try {
      openTransport(sealed, undefined);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SealedSecretError);
    const sealedError = error as SealedSecretError;
    expect(sealedError.code).toBe('secret-sealed');
    expect(sealedError.kind).toBe('env');
    expect(sealedError.names).toEqual(['API_KEY', 'OTHER']);
    expect(sealedError.message).toContain('this secret was encrypted by the desktop app');
    expect(sealedError.message).toContain('start the server there or re-enter it');
    expect(sealedError.message).not.toContain(SEALED_PREFIX);
  });

  it('a value sealed with another key (another user or machine) is a SealedSecretError too', () => {
    const sealed = sealTransport(http({ 'X-Api-Key': 'k' }), fakeSecretCodec({ key: 1 }));
    expect(() => openTransport(sealed, fakeSecretCodec({ key: 2 }))).toThrow(SealedSecretError);
    expect(() => openTransport(sealed, fakeSecretCodec({ key: 2 }))).toThrow(/header X-Api-Key/);
  });

  it('seals the URL password and key-like query values in place, percent-encoded, and opens them back exactly', () => {
    const codec = fakeSecretCodec();
    const url = 'https://alice:p%40ss-w0rd@mcp.example.com/mcp?region=eu+west&api_key=sk-live-123#x';
    const plain = http({});
    const withUrl = { ...plain, url };
    const sealed = sealTransport(withUrl, codec) as HttpTransportConfig;
    expect(sealed.url).not.toContain('p%40ss-w0rd');
    expect(sealed.url).not.toContain('sk-live-123');
    expect(sealed.url).toMatch(/^https:\/\/alice:enc%3Av1%3A[^@]+@mcp\.example\.com\/mcp\?region=eu\+west&api_key=enc%3Av1%3A[^&#]+#x$/);
    expect(URL.canParse(sealed.url)).toBe(true);
    expect(hasPlainSecrets(sealed)).toBe(false);
    expect(openTransport(sealed, codec)).toEqual(withUrl);
    expect(() => openTransport(sealed, undefined)).toThrow(/URL secrets URL password, URL parameter api_key/);
  });

  it('says where each secret is kept: the keychain, in clear (no keychain here), or sealed elsewhere', () => {
    const transport = { type: 'http' as const, url: 'https://u:pw@h.example/?token=t', headers: { Authorization: 'Bearer x', Empty: '' } };
    expect(secretPlacements(transport, fakeSecretCodec())).toEqual([
      { kind: 'header', name: 'Authorization', storage: 'keychain' },
      { kind: 'url', name: 'password', storage: 'keychain' },
      { kind: 'url', name: 'token', storage: 'keychain' },
    ]);
    expect(secretPlacements(transport, fakeSecretCodec({ available: false })).map((p) => p.storage)).toEqual(['unencrypted', 'unencrypted', 'unencrypted']);
    expect(secretPlacements(transport, undefined).map((p) => p.storage)).toEqual(['unencrypted', 'unencrypted', 'unencrypted']);
    const sealedElsewhere = sealTransport(stdio({ TOKEN: 'abc', DIRS: '${roots}' }), fakeSecretCodec());
    expect(secretPlacements(sealedElsewhere, undefined)).toEqual([{ kind: 'env', name: 'TOKEN', storage: 'unreadable' }]);
  });

  it('redacts a URL secret from a log line, as written and decoded', () => {
    const transport = { type: 'http' as const, url: 'https://u:p%40ssword99@h.example/?api_key=sk-live-123456', headers: {} };
    expect(redactSecretValues('GET ?api_key=sk-live-123456 as p%40ssword99 / p@ssword99', transport)).toBe(
      `GET ?api_key=${SECRET_MASK} as ${SECRET_MASK} / ${SECRET_MASK}`,
    );
  });
});
