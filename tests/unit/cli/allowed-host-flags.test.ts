// `servers set NAME --allow-host/--deny-host/--allow-any-host`: the list edited, every word checked.
import { describe, expect, it } from 'vitest';
import { editAllowedHosts } from '../../../electron/cli/allowed-host-flags.js';

describe('allowed-host flags', () => {
  it('limits a server with any host to the hosts given, then edits its list, then opens it again', () => {
    expect(editAllowedHosts(undefined, undefined, undefined, undefined)).toBeUndefined();
    expect(editAllowedHosts(undefined, ['API.github.com'], undefined, undefined)).toEqual({ allowHosts: ['api.github.com'], changes: ['its network limited to a list of allowed hosts', 'api.github.com allowed'] });
    expect(editAllowedHosts(['a.com', 'b.com'], ['c.com', 'a.com'], ['b.com', 'x.com'], undefined)).toEqual({
      allowHosts: ['a.com', 'c.com'],
      changes: ['b.com no longer allowed', 'x.com was not allowed', 'c.com allowed', 'a.com was already allowed'],
    });
    expect(editAllowedHosts(['a.com'], undefined, undefined, true)).toEqual({ allowHosts: null, changes: ['any host allowed (its list of allowed hosts removed)'] });
  });

  it('refuses a bad host, and --allow-any-host beside a list, with the reason', () => {
    expect(() => editAllowedHosts(undefined, ['https://a.com'], undefined, undefined)).toThrow('--allow-host: "https://a.com": a host is a bare name or address, not a URL');
    expect(() => editAllowedHosts(undefined, ['a.com'], undefined, true)).toThrow('--allow-any-host replaces the list');
  });
});
