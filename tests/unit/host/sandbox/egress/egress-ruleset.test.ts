// The rules that hold a server to its allowed hosts, as text for nft: what is loaded is what is read here.
import { describe, expect, it } from 'vitest';
import { addAllowed, egressRuleset, readRecordSets, replaceAllowed } from '../../../../../electron/host/sandbox/egress/egress-ruleset.js';
import { pastaPolicy, privateResolvConf } from '../../../../../electron/host/sandbox/private-network.js';

describe('the egress rules', () => {
  it('keep the loopback and neighbour discovery open, let allowed addresses through, record and refuse the rest', () => {
    const rules = egressRuleset();
    expect(rules).toContain('oifname "lo" accept');
    expect(rules).toContain('icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-solicit } accept');
    expect(rules).toContain('ip daddr . th dport @ports4 goto allowed');
    // Refused TCP is reset at once (ECONNREFUSED), not left to time out.
    expect(rules.indexOf('add @refused4')).toBeLessThan(rules.indexOf('meta l4proto tcp reject with tcp reset'));
    expect(rules.trim().split('\n').filter((line) => /reject/.test(line))).toHaveLength(3);
  });

  it('adds addresses by family and port, and replaces them all in one transaction', () => {
    const entries = [
      { address: '192.0.2.7', family: 4 as const },
      { address: '192.0.2.8', family: 4 as const, port: 443 },
      { address: '2001:db8::1', family: 6 as const, port: 443 },
    ];
    expect(addAllowed(entries)).toBe(
      'add element inet mcp_roots_egress names4 { 192.0.2.7 }\nadd element inet mcp_roots_egress ports4 { 192.0.2.8 . 443 }\nadd element inet mcp_roots_egress ports6 { 2001:db8::1 . 443 }\n',
    );
    expect(addAllowed([])).toBe('');
    const replaced = replaceAllowed(entries.slice(0, 1));
    expect(replaced.split('\n').slice(0, 4)).toEqual(['names4', 'names6', 'ports4', 'ports6'].map((set) => `flush set inet mcp_roots_egress ${set}`));
    expect(replaced).toContain('names4 { 192.0.2.7 }');
  });

  it("reads the record sets of nft's JSON, and deletes exactly what it read", () => {
    const json = JSON.stringify({
      nftables: [
        { set: { name: 'used4', elem: [{ concat: ['192.0.2.7', 'tcp', 443] }] } },
        { set: { name: 'refused6', elem: [{ concat: ['2001:db8::9', 'udp', 53] }] } },
        { set: { name: 'names4', elem: ['192.0.2.7'] } },
      ],
    });
    const { seen, deletes } = readRecordSets(json);
    expect(seen).toEqual([
      { address: '192.0.2.7', protocol: 'tcp', port: 443, verdict: 'allowed' },
      { address: '2001:db8::9', protocol: 'udp', port: 53, verdict: 'refused' },
    ]);
    expect(deletes).toBe('delete element inet mcp_roots_egress used4 { 192.0.2.7 . tcp . 443 }\ndelete element inet mcp_roots_egress refused6 { 2001:db8::9 . udp . 53 }\n');
  });

  it("with a list, pasta forwards its own port 53 to the app's answerer and its resolver is its own loopback", () => {
    expect(pastaPolicy([3000], 41234)).toEqual(['--config-net', '-t', 'none', '-u', 'none', '-T', '3000,53:41234', '-U', '3000,53:41234', '--no-map-gw']);
    expect(privateResolvConf('search corp.example\nnameserver 10.0.0.1\n', true).split('\n').filter((line) => !line.startsWith('#'))).toEqual(['nameserver 127.0.0.1', 'search corp.example', '']);
  });
});
