import { describe, expect, it } from 'vitest';
import { BROWSER_FIX, DNS_ADDRESS, NAMESPACE_KEEPER, pastaArgs, pastaPolicy, privateResolvConf } from '../../../../electron/host/sandbox/private-network.js';

describe('the private network through pasta', () => {
  it("publishes none of the server's ports, closes this computer's loopback but the ports opened for it, and forwards its DNS", () => {
    expect(pastaPolicy()).toEqual(['--config-net', '-t', 'none', '-u', 'none', '-T', 'none', '-U', 'none', '--no-map-gw', '--dns-forward', DNS_ADDRESS]);
    // Each port once, in order, for TCP and UDP alike.
    expect(pastaPolicy([8080, 3000, 8080])).toEqual(expect.arrayContaining(['-T', '3000,8080', '-U', '3000,8080']));
  });

  it("names the forwarded DNS address as the server's only resolver, keeping the host's search domains and options", () => {
    const host = '# systemd-resolved\nnameserver 127.0.0.53\nnameserver ::1\noptions edns0 trust-ad\nsearch corp.example\n';
    expect(privateResolvConf(host).split('\n').filter((line) => !line.startsWith('#'))).toEqual([`nameserver ${DNS_ADDRESS}`, 'options edns0 trust-ad', 'search corp.example', '']);
    expect(privateResolvConf('')).toContain(`nameserver ${DNS_ADDRESS}`);
  });

  it("joins the holder's namespaces; as root it stays root (nobody may not enter root's user namespace)", () => {
    expect(pastaArgs(42, [], 1000).slice(-4)).toEqual(['--netns', '/proc/42/ns/net', '--userns', '/proc/42/ns/user']);
    expect(pastaArgs(42, [], 1000)).not.toContain('--runas');
    expect(pastaArgs(42, [], 0)).toEqual(expect.arrayContaining(['--runas', '0']));
  });

  it('the holder maps the user to itself and makes the network namespace, then runs what follows in its place', () => {
    expect(NAMESPACE_KEEPER).toEqual(['unshare', '--user', '--map-current-user', '--net', '--']);
  });

  it('offers the narrowest fixes for a browser, never the sandbox off', () => {
    expect(BROWSER_FIX).toMatch(/install the "passt" package.*or turn this server's network off/);
    expect(BROWSER_FIX).not.toMatch(/sandbox off|without (the )?sandbox/i);
  });
});
