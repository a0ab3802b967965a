// The DNS answerer of one server with a list of allowed hosts (issue #28): the only resolver the
// server has (its /etc/resolv.conf names its own loopback, whose port 53 pasta forwards here:
// private-network.ts). A name the list allows is asked of this computer's resolver, and its
// addresses are let through the server's rules BEFORE the answer is sent (egress-guard.ts), so the
// connection that follows passes; any other name gets REFUSED ("refused for policy reasons",
// RFC 1035), and the server learns no address from us. UDP and TCP, as resolvers are asked.
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import dnsPacket from 'dns-packet';

export interface Upstream {
  host: string;
  port: number;
}

/** This computer's resolver: MCP_ROOTS_DNS_UPSTREAM (HOST:PORT) where set, else the first nameserver of /etc/resolv.conf. */
export function upstreamResolver(resolvConf = '/etc/resolv.conf'): Upstream | undefined {
  const override = process.env.MCP_ROOTS_DNS_UPSTREAM;
  if (override) {
    const at = override.lastIndexOf(':');
    return { host: override.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(override.slice(at + 1)) };
  }
  try {
    const line = fs
      .readFileSync(resolvConf, 'utf8')
      .split('\n')
      .find((each) => /^\s*nameserver\s+\S+/.test(each));
    const host = line?.trim().split(/\s+/)[1];
    return host ? { host: host.replace(/%.*$/, ''), port: 53 } : undefined;
  } catch {
    return undefined;
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface AnswererPolicy {
  /** Whether a looked-up name may be answered. */
  allows(name: string): boolean;
  /** Called with an allowed name's addresses; the answer waits for it (the rules must hold them first). */
  admit(name: string, addresses: readonly ResolvedAddress[]): Promise<void>;
  /** Every question, once answered: the record of names it looked up. */
  asked(name: string, type: string, verdict: 'allowed' | 'refused', addresses: readonly ResolvedAddress[]): void;
}

export interface DnsAnswerer {
  port: number;
  close(): Promise<void>;
}

const RCODE_SERVFAIL = 2;
const RCODE_REFUSED = 5;
const UPSTREAM_TIMEOUT_MS = 4_000;

/** A response with no record: the query's id, question and RD flag, with `rcode`. */
function emptyAnswer(query: dnsPacket.DecodedPacket, rcode: number): Buffer {
  const recursion = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
  return dnsPacket.encode({ type: 'response', id: query.id, flags: recursion | dnsPacket.RECURSION_AVAILABLE | rcode, questions: query.questions ?? [] });
}

function askUpstream(upstream: Upstream, query: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(upstream.host) ? 'udp6' : 'udp4');
    const timer = setTimeout(() => finish(new Error('no answer from this computer\'s resolver')), UPSTREAM_TIMEOUT_MS);
    const finish = (error?: Error, answer?: Buffer) => {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(answer as Buffer);
    };
    socket.on('error', (error) => finish(error));
    socket.on('message', (answer) => {
      // Its answer to this query (the id), not a stray datagram.
      if (answer.length >= 2 && answer.readUInt16BE(0) === query.readUInt16BE(0)) finish(undefined, answer);
    });
    socket.send(query, upstream.port, upstream.host);
  });
}

function addressesIn(answer: dnsPacket.DecodedPacket): ResolvedAddress[] {
  return (answer.answers ?? []).flatMap((record): ResolvedAddress[] => {
    if (record.type === 'A' && typeof record.data === 'string') return [{ address: record.data, family: 4 as const }];
    if (record.type === 'AAAA' && typeof record.data === 'string') return [{ address: record.data.toLowerCase(), family: 6 as const }];
    return [];
  });
}

/** One query in, one answer out (whatever goes wrong, an answer: the server's resolver never waits in vain). */
async function answer(raw: Buffer, upstream: Upstream | undefined, policy: AnswererPolicy): Promise<Buffer | undefined> {
  let query: dnsPacket.DecodedPacket;
  try {
    query = dnsPacket.decode(raw);
  } catch {
    return undefined;
  }
  const question = query.questions?.[0];
  if (!question || query.questions?.length !== 1) return emptyAnswer(query, 1);
  const name = question.name.toLowerCase().replace(/\.$/, '');
  if (!policy.allows(name)) {
    policy.asked(name, question.type, 'refused', []);
    return emptyAnswer(query, RCODE_REFUSED);
  }
  if (!upstream) return emptyAnswer(query, RCODE_SERVFAIL);
  try {
    const reply = await askUpstream(upstream, raw);
    const addresses = addressesIn(dnsPacket.decode(reply));
    if (addresses.length) await policy.admit(name, addresses);
    policy.asked(name, question.type, 'allowed', addresses);
    return reply;
  } catch {
    return emptyAnswer(query, RCODE_SERVFAIL);
  }
}

/** Listens on 127.0.0.1 at one port for UDP and TCP; resolves once both are bound. */
export async function startDnsAnswerer(upstream: Upstream | undefined, policy: AnswererPolicy): Promise<DnsAnswerer> {
  for (let attempt = 0; ; attempt++) {
    const udp = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => resolve());
    });
    const port = udp.address().port;
    const tcp = net.createServer((socket) => serveTcp(socket, upstream, policy));
    const bound = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) {
      udp.close();
      // The same port taken for TCP by another program: another pair (rare).
      if (attempt < 20) continue;
      throw new Error('no port for the DNS answerer on 127.0.0.1');
    }
    udp.on('error', () => undefined);
    udp.on('message', (raw, from) => {
      void answer(raw, upstream, policy).then((reply) => {
        if (reply) udp.send(reply, from.port, from.address);
      });
    });
    udp.unref();
    tcp.unref();
    return {
      port,
      close: async () => {
        udp.close();
        await new Promise<void>((resolve) => tcp.close(() => resolve()));
      },
    };
  }
}

/** DNS over TCP: each message prefixed by its length (RFC 1035 4.2.2); asked upstream over UDP. */
function serveTcp(socket: net.Socket, upstream: Upstream | undefined, policy: AnswererPolicy): void {
  let pending = Buffer.alloc(0);
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
      const raw = pending.subarray(2, 2 + pending.readUInt16BE(0));
      pending = pending.subarray(2 + raw.length);
      void answer(Buffer.from(raw), upstream, policy).then((reply) => {
        if (!reply || socket.destroyed) return;
        const length = Buffer.alloc(2);
        length.writeUInt16BE(reply.length);
        socket.write(Buffer.concat([length, reply]));
      });
    }
    if (pending.length > 65_537) socket.destroy();
  });
}
