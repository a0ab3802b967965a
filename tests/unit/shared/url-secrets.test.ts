// The secret parts of an HTTP server's URL: found, masked for every UI, and restored from the
// stored value when an edited URL still carries the mask; the rest of the URL keeps its spelling.
import { describe, expect, it } from 'vitest';
import { maskTransport, maskUrl, SECRET_MASK, unmaskTransport } from '../../../shared/secrets.js';
import { isKeyLikeParam, urlSecretParts } from '../../../shared/url-secrets.js';

const URL_WITH_SECRETS = 'https://alice:s3cr%40t-pw@mcp.example.com:8443/v1/mcp?region=eu%20west&api_key=sk-live-123&token=t0k&x=1#frag';

describe('URL secrets', () => {
  it('finds the password and the key-like query values, and nothing else', () => {
    expect(urlSecretParts(URL_WITH_SECRETS)).toEqual([
      { kind: 'password', name: 'alice', raw: 's3cr%40t-pw' },
      { kind: 'query', name: 'api_key', raw: 'sk-live-123' },
      { kind: 'query', name: 'token', raw: 't0k' },
    ]);
    for (const name of ['apiKey', 'access_token', 'client_secret', 'password', 'sig', 'X-Auth']) expect(isKeyLikeParam(name), name).toBe(true);
    for (const name of ['region', 'page', 'q', 'format']) expect(isKeyLikeParam(name), name).toBe(false);
  });

  it('masks them and keeps every other character as written', () => {
    expect(maskUrl(URL_WITH_SECRETS)).toBe(
      `https://alice:${SECRET_MASK}@mcp.example.com:8443/v1/mcp?region=eu%20west&api_key=${SECRET_MASK}&token=${SECRET_MASK}&x=1#frag`,
    );
    expect(maskUrl('https://mcp.example.com/mcp')).toBe('https://mcp.example.com/mcp');
    expect(maskUrl('https://user@mcp.example.com/?q=1')).toBe('https://user@mcp.example.com/?q=1');
    const masked = maskTransport({ type: 'http', url: URL_WITH_SECRETS, headers: { Authorization: 'Bearer x' } });
    expect(JSON.stringify(masked)).not.toMatch(/s3cr|sk-live|t0k|Bearer/);
  });

  it('an edited URL that still carries the mask keeps the stored secrets; a changed one takes the new value', () => {
    const previous = { type: 'http' as const, url: URL_WITH_SECRETS, headers: {} };
    const masked = maskUrl(URL_WITH_SECRETS);
    // The user changed the path only.
    const edited = masked.replace('/v1/', '/v2/');
    expect(unmaskTransport({ ...previous, url: edited }, previous)).toMatchObject({ url: URL_WITH_SECRETS.replace('/v1/', '/v2/') });
    // Percent-encoded by a browser, the mask still means "keep".
    const encoded = masked.replace(`api_key=${SECRET_MASK}`, `api_key=${encodeURIComponent(SECRET_MASK)}`);
    expect(unmaskTransport({ ...previous, url: encoded }, previous)).toMatchObject({ url: URL_WITH_SECRETS });
    // A new token replaces the old one; a mask with nothing stored behind it becomes empty, never "••••••".
    expect(unmaskTransport({ ...previous, url: masked.replace(`token=${SECRET_MASK}`, 'token=new') }, previous)).toMatchObject({
      url: URL_WITH_SECRETS.replace('token=t0k', 'token=new'),
    });
    expect(unmaskTransport({ ...previous, url: `https://mcp.example.com/?secret=${SECRET_MASK}` }, previous)).toMatchObject({
      url: 'https://mcp.example.com/?secret=',
    });
  });
});
