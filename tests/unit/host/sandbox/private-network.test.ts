import { describe, expect, it } from 'vitest';
import { BROWSER_FIX, NAMESPACE_KEEPER, PASTA_POLICY, pastaArgs } from '../../../../electron/host/sandbox/private-network.js';

describe('the private network through pasta', () => {
  it('publishes none of the server ports, keeps this machine loopback ports reachable, and no second way to them through the gateway', () => {
    expect(PASTA_POLICY).toEqual(['--config-net', '-t', 'none', '-u', 'none', '-T', 'auto', '-U', 'auto', '--no-map-gw']);
  });

  it("joins the holder's namespaces; as root it stays root (nobody may not enter root's user namespace)", () => {
    expect(pastaArgs(42, 1000).slice(-4)).toEqual(['--netns', '/proc/42/ns/net', '--userns', '/proc/42/ns/user']);
    expect(pastaArgs(42, 1000)).not.toContain('--runas');
    expect(pastaArgs(42, 0)).toEqual(expect.arrayContaining(['--runas', '0']));
  });

  it('the holder maps the user to itself and makes the network namespace, then runs what follows in its place', () => {
    expect(NAMESPACE_KEEPER).toEqual(['unshare', '--user', '--map-current-user', '--net', '--']);
  });

  it('offers the narrowest fixes for a browser, never the sandbox off', () => {
    expect(BROWSER_FIX).toMatch(/install the "passt" package.*or turn this server's network off/);
    expect(BROWSER_FIX).not.toMatch(/sandbox off|without (the )?sandbox/i);
  });
});
