// The hosts a network-on server may reach (allowHosts): one parser for the CLI, the UI and the
// registry file, and the matcher the app's DNS answerer asks.
import { describe, expect, it } from 'vitest';
import { serverPatchSchema } from '../../../shared/contract.js';
import { parseHostPattern, portsForName } from '../../../shared/host-patterns.js';
import { allowHostsSchema } from '../../../shared/registry-schema.js';

const pattern = (text: string) => {
  const parsed = parseHostPattern(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.pattern;
};

describe('host patterns', () => {
  it.each([
    ['api.github.com', 'api.github.com'],
    ['API.GitHub.com.', 'api.github.com'],
    ['*.github.com', '*.github.com'],
    ['api.github.com:443', 'api.github.com:443'],
    ['192.0.2.7', '192.0.2.7'],
    ['192.0.2.7:80', '192.0.2.7:80'],
    ['2001:db8::7', '[2001:db8::7]'],
    ['[2001:db8::7]:443', '[2001:db8::7]:443'],
    ['::ffff:192.0.2.7', '[::ffff:192.0.2.7]'],
  ])('keeps %s as %s', (input, text) => {
    expect(pattern(input).text).toBe(text);
  });

  it.each([
    ['', 'a host is a name like'],
    ['https://api.github.com', 'not a URL'],
    ['api.github.com/repos', 'not a URL'],
    ['*.com', 'two labels at least'],
    ['a*.github.com', '"*." at the start only'],
    ['x.com:0', 'between 1 and 65535'],
    ['x.com:65536', 'between 1 and 65535'],
    ['-x.com', 'not a host name'],
    ['1.2.3', 'not a host name or an IPv4 address'],
    ['2001:db8:::7', 'not an IPv6 address'],
    ['localhost', '--allow-local'],
    ['127.0.0.1:8080', '--allow-local'],
    ['[::1]:8080', '--allow-local'],
  ])('refuses %j with the reason', (input, reason) => {
    const parsed = parseHostPattern(input);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toContain(reason);
  });

  it('a wildcard covers the names below a domain, not the domain itself; a port narrows, no port means any', () => {
    const list = ['*.github.com', 'api.example.com:443', 'api.example.com:8443', 'example.org'].map(pattern);
    expect(portsForName(list, 'api.github.com')).toBe('any');
    expect(portsForName(list, 'raw.objects.github.com.')).toBe('any');
    expect(portsForName(list, 'github.com')).toBeUndefined();
    expect(portsForName(list, 'evilgithub.com')).toBeUndefined();
    expect(portsForName(list, 'API.example.com')).toEqual(new Set([443, 8443]));
    expect(portsForName(list, 'example.org')).toBe('any');
    expect(portsForName(list, 'www.example.org')).toBeUndefined();
  });

  it('the registry file and every edit take only lists in the parser\'s own form, each once', () => {
    expect(allowHostsSchema.parse(['api.github.com', '*.github.com:443'])).toEqual(['api.github.com', '*.github.com:443']);
    expect(allowHostsSchema.safeParse(['API.github.com']).error?.issues[0]?.message).toContain('is written "api.github.com"');
    expect(allowHostsSchema.safeParse(['a.com', 'a.com']).error?.issues[0]?.message).toContain('listed once');
    expect(allowHostsSchema.safeParse(['http://a.com']).success).toBe(false);
    expect(serverPatchSchema.safeParse({ allowHosts: null }).success).toBe(true);
    expect(serverPatchSchema.safeParse({ allowHosts: ['a.com:99999'] }).success).toBe(false);
  });
});
