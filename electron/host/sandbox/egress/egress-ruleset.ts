// The rules that hold a server with a list of allowed hosts (issue #28) to that list, in its own
// network namespace (nftables, set there by the app: netns-nft.ts). One decision, here, as text
// for `nft -f -`; pure, so the tests read exactly what is loaded.
//
// What they say: every packet the server sends leaves through its namespace's output hook, so
// - its loopback stays open (its own sockets, the DNS answerer's port and the local ports pasta
//   forwards: private-network.ts decides those);
// - IPv6 neighbour discovery passes (without it no IPv6 address is reached at all);
// - TCP and UDP pass to an address an allowed name resolved to (at the ports the list allows), or
//   to an address the list names; every other packet is refused: a TCP connection is reset at once
//   (ECONNREFUSED), anything else gets "administratively prohibited";
// - each refused and each allowed (address, protocol, port) is put in a set, which the app reads
//   and empties (the record of destinations: egress-guard.ts).
// A hard-coded address, a resolver of the server's own (8.8.8.8:53), DNS over HTTPS to an address
// not on the list, QUIC: all are packets to an address no allowed name gave, and are refused.

export const EGRESS_TABLE = 'mcp_roots_egress';

/** One allowed destination: an address at any port, or at one port. */
export interface AllowedAddress {
  address: string;
  family: 4 | 6;
  port?: number | undefined;
}

/** The sets the app reads for the record, and what each holds. */
export const RECORD_SETS = { used4: 'allowed', used6: 'allowed', refused4: 'refused', refused6: 'refused' } as const;

/** How many distinct destinations each record set holds between two reads (more are not recorded until it is emptied). */
const RECORD_SET_SIZE = 4096;

export function egressRuleset(): string {
  const record = (name: string, family: 'ipv4_addr' | 'ipv6_addr') => `  set ${name} { type ${family} . inet_proto . inet_service; size ${RECORD_SET_SIZE}; flags dynamic; }`;
  return [
    `table inet ${EGRESS_TABLE} {`,
    '  set names4 { type ipv4_addr; }',
    '  set names6 { type ipv6_addr; }',
    '  set ports4 { type ipv4_addr . inet_service; }',
    '  set ports6 { type ipv6_addr . inet_service; }',
    record('used4', 'ipv4_addr'),
    record('used6', 'ipv6_addr'),
    record('refused4', 'ipv4_addr'),
    record('refused6', 'ipv6_addr'),
    '  chain out {',
    '    type filter hook output priority filter; policy accept;',
    '    oifname "lo" accept',
    '    icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-solicit } accept',
    '    meta l4proto { tcp, udp } goto transport',
    '    ip daddr @names4 accept',
    '    ip6 daddr @names6 accept',
    '    reject with icmpx admin-prohibited',
    '  }',
    '  chain transport {',
    '    ip daddr @names4 goto allowed',
    '    ip daddr . th dport @ports4 goto allowed',
    '    ip6 daddr @names6 goto allowed',
    '    ip6 daddr . th dport @ports6 goto allowed',
    // Separate rules: a full record set fails its `add`, and must never decide the packet.
    '    add @refused4 { ip daddr . meta l4proto . th dport }',
    '    add @refused6 { ip6 daddr . meta l4proto . th dport }',
    '    meta l4proto tcp reject with tcp reset',
    '    reject with icmpx admin-prohibited',
    '  }',
    '  chain allowed {',
    '    add @used4 { ip daddr . meta l4proto . th dport }',
    '    add @used6 { ip6 daddr . meta l4proto . th dport }',
    '    accept',
    '  }',
    '}',
    '',
  ].join('\n');
}

function element(entry: AllowedAddress): string {
  return entry.port === undefined ? entry.address : `${entry.address} . ${entry.port}`;
}

function setOf(entry: AllowedAddress): string {
  return `${entry.port === undefined ? 'names' : 'ports'}${entry.family}`;
}

/** Adds destinations (one transaction: all or none). Empty text for nothing to add. */
export function addAllowed(entries: readonly AllowedAddress[]): string {
  const bySet = new Map<string, Set<string>>();
  for (const entry of entries) {
    const set = bySet.get(setOf(entry)) ?? new Set<string>();
    set.add(element(entry));
    bySet.set(setOf(entry), set);
  }
  return [...bySet].map(([set, elements]) => `add element inet ${EGRESS_TABLE} ${set} { ${[...elements].join(', ')} }\n`).join('');
}

/** Replaces every allowed destination by `entries`, in one transaction: a narrowed list holds from the next packet. */
export function replaceAllowed(entries: readonly AllowedAddress[]): string {
  return ['names4', 'names6', 'ports4', 'ports6'].map((set) => `flush set inet ${EGRESS_TABLE} ${set}\n`).join('') + addAllowed(entries);
}

/** One recorded destination, as read from a record set. */
export interface SeenDestination {
  address: string;
  protocol: string;
  port: number;
  verdict: 'allowed' | 'refused';
}

type NftJson = { nftables?: { set?: { name?: string; elem?: { concat?: unknown[] }[] } }[] };

/** The record sets' elements in `nft -j list table` output. */
export function readRecordSets(json: string): { seen: SeenDestination[]; deletes: string } {
  const parsed = JSON.parse(json) as NftJson;
  const seen: SeenDestination[] = [];
  let deletes = '';
  for (const item of parsed.nftables ?? []) {
    const set = item.set;
    if (!set?.name || !(set.name in RECORD_SETS) || !set.elem?.length) continue;
    const names: string[] = [];
    for (const elem of set.elem) {
      const [address, protocol, port] = elem.concat ?? [];
      if (typeof address !== 'string' || typeof port !== 'number') continue;
      seen.push({ address, protocol: String(protocol), port, verdict: RECORD_SETS[set.name as keyof typeof RECORD_SETS] });
      names.push(`${address} . ${String(protocol)} . ${port}`);
    }
    // Exactly what was read: an element added since stays for the next read.
    if (names.length) deletes += `delete element inet ${EGRESS_TABLE} ${set.name} { ${names.join(', ')} }\n`;
  }
  return { seen, deletes };
}
