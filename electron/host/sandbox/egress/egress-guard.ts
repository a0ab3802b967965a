// One server's allowed hosts, enforced (issue #28): the DNS answerer (dns-answerer.ts) answers the
// names the list allows and lets their addresses through the rules (egress-ruleset.ts) in the
// server's own network namespace before it answers; everything else the server sends is refused
// by the kernel there. Its record of destinations (network-record.ts) comes from both: the names
// asked, and the record sets the rules fill, read every RECORD_POLL_MS. The list changes live:
// setHosts() replaces the allowed addresses in one transaction.
//
// Its life: made before the server's spawn (pasta needs the answerer's port), attached to the
// namespace once pasta has configured it and before the server runs (attachPrivateNetwork), stopped
// when its confinement is released.
import { quote } from 'shell-quote';
import { parseHostList, portsForName, type HostPattern } from '../../../../shared/host-patterns.js';
import { startDnsAnswerer, upstreamResolver, type DnsAnswerer, type ResolvedAddress } from './dns-answerer.js';
import { addAllowed, egressRuleset, EGRESS_TABLE, readRecordSets, replaceAllowed, type AllowedAddress, type SeenDestination } from './egress-ruleset.js';
import { runNft, type NetnsNft } from './netns-nft.js';
import type { NetworkRecord } from './network-record.js';

const RECORD_POLL_MS = 1_000;

export interface EgressGuardOptions {
  serverName: string;
  hosts: readonly string[];
  helper: string;
  nft: string;
  record: NetworkRecord;
  /** One line per refused destination (once each), for the proxy's stderr or the app's activity log. */
  onRefused(line: string): void;
}

function describe(seen: Pick<SeenDestination, 'address' | 'port' | 'protocol'>): string {
  return `${seen.address.includes(':') ? `[${seen.address}]` : seen.address}:${seen.port}/${seen.protocol}`;
}

export class EgressGuard {
  private patterns: HostPattern[];
  /** Each allowed name answered so far, with its addresses: rebuilt into rules when the list changes. */
  private readonly answers = new Map<string, ResolvedAddress[]>();
  private target: NetnsNft | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private poll: NodeJS.Timeout | undefined;
  private readonly announced = new Set<string>();
  private stopped = false;

  private constructor(
    private readonly options: EgressGuardOptions,
    private answerer: DnsAnswerer | undefined,
  ) {
    const parsed = parseHostList(options.hosts);
    if (!parsed.ok) throw new Error(parsed.error);
    this.patterns = parsed.patterns;
  }

  /** Starts the answerer (its port is pasta's to forward); the rules wait for attach(). */
  static async start(options: EgressGuardOptions): Promise<EgressGuard> {
    const guard = new EgressGuard(options, undefined);
    guard.answerer = await startDnsAnswerer(upstreamResolver(), {
      allows: (name) => portsForName(guard.patterns, name) !== undefined,
      admit: (name, addresses) => guard.admit(name, addresses),
      asked: (name, type, verdict, addresses) => guard.asked(name, type, verdict, addresses),
    });
    return guard;
  }

  get dnsPort(): number {
    return this.answerer?.port ?? 0;
  }

  get hosts(): string[] {
    return this.patterns.map((pattern) => pattern.text);
  }

  /** Loads the rules into the namespace of `pid` (the keeper pasta joined), with the addresses the list names. */
  async attach(target: NetnsNft): Promise<void> {
    this.target = target;
    await this.nft(['-f', '-'], egressRuleset() + addAllowed(this.allowedAddresses()));
    this.poll = setInterval(() => void this.readRecord(), RECORD_POLL_MS).unref();
  }

  /** Whether the rules are in force in the namespace now (the self-check's proof, from inside its namespace). */
  async verify(): Promise<boolean> {
    if (!this.target) return false;
    try {
      const listed = await this.nft(['list', 'chain', 'inet', EGRESS_TABLE, 'transport']);
      return listed.includes('reject');
    } catch {
      return false;
    }
  }

  /** A new list, live: the allowed addresses are replaced in one transaction, so a narrowed list holds from the next packet. */
  async setHosts(hosts: readonly string[]): Promise<void> {
    const parsed = parseHostList(hosts);
    if (!parsed.ok) throw new Error(parsed.error);
    this.patterns = parsed.patterns;
    for (const name of [...this.answers.keys()]) if (portsForName(this.patterns, name) === undefined) this.answers.delete(name);
    if (this.target) await this.nft(['-f', '-'], replaceAllowed(this.allowedAddresses()));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    await this.answerer?.close();
    // What the rules saw since the last read is still worth keeping; the namespace may be gone.
    if (this.target) await this.readRecord().catch(() => undefined);
    this.options.record.flush();
  }

  private allowedAddresses(): AllowedAddress[] {
    const entries: AllowedAddress[] = [];
    for (const pattern of this.patterns) if (pattern.kind === 'address') entries.push({ address: pattern.address, family: pattern.family, port: pattern.port });
    for (const [name, addresses] of this.answers) entries.push(...this.entriesFor(name, addresses));
    return entries;
  }

  private entriesFor(name: string, addresses: readonly ResolvedAddress[]): AllowedAddress[] {
    const ports = portsForName(this.patterns, name);
    if (ports === undefined) return [];
    return addresses.flatMap((each): AllowedAddress[] => (ports === 'any' ? [{ ...each, port: undefined }] : [...ports].map((port) => ({ ...each, port }))));
  }

  private async admit(name: string, addresses: readonly ResolvedAddress[]): Promise<void> {
    const known = this.answers.get(name) ?? [];
    const fresh = addresses.filter((each) => !known.some((seen) => seen.address === each.address));
    if (fresh.length === 0) return;
    this.answers.set(name, [...known, ...fresh]);
    if (this.target) await this.nft(['-f', '-'], addAllowed(this.entriesFor(name, fresh)));
  }

  private asked(name: string, type: string, verdict: 'allowed' | 'refused', addresses: readonly ResolvedAddress[]): void {
    this.options.record.note({ kind: 'lookup', target: name, verdict, ...(addresses.length ? { addresses: addresses.map((each) => each.address) } : {}) });
    if (verdict === 'refused') this.announce(`lookup ${name}`, `refused ${name} (${type}): not in ${this.options.serverName}'s allowed hosts; allow it with: mcp-roots servers set ${quoteName(this.options.serverName)} --allow-host ${name}`);
  }

  private async readRecord(): Promise<void> {
    if (!this.target || this.stopped) return;
    try {
      const { seen, deletes } = readRecordSets(await this.nft(['-j', 'list', 'table', 'inet', EGRESS_TABLE]));
      if (deletes) await this.nft(['-f', '-'], deletes);
      for (const each of seen) this.noteConnection(each);
    } catch {
      // The namespace ended with its server: nothing more to read.
    }
  }

  private noteConnection(seen: SeenDestination): void {
    const names = [...this.answers].filter(([, addresses]) => addresses.some((each) => each.address === seen.address)).map(([name]) => name);
    const target = describe(seen);
    this.options.record.note({ kind: 'connect', target, verdict: seen.verdict, ...(names.length ? { names } : {}) });
    if (seen.verdict !== 'refused') return;
    const why = names.length
      ? `port ${seen.port} is not allowed for ${names.join(', ')}; allow it with: mcp-roots servers set ${quoteName(this.options.serverName)} --allow-host ${names[0]}:${seen.port}`
      : `an address no allowed name resolved to (a hard-coded address, or a resolver of its own); allow it with: mcp-roots servers set ${quoteName(this.options.serverName)} --allow-host ${seen.address.includes(':') ? `[${seen.address}]` : seen.address}:${seen.port}`;
    this.announce(`connect ${target}`, `refused ${target}: ${why}`);
  }

  private announce(key: string, line: string): void {
    if (this.announced.has(key)) return;
    this.announced.add(key);
    this.options.onRefused(line);
  }

  /** nft calls one at a time, in order: an answer's addresses are in force before a later replace. */
  private nft(args: readonly string[], input?: string): Promise<string> {
    const target = this.target;
    if (!target) return Promise.reject(new Error('not attached'));
    const next = this.chain.then(() => runNft(target, args, input));
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** A server name as typed into a shell. */
function quoteName(name: string): string {
  return quote([name]);
}
