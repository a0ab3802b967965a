// The DNS answerer of a server with allowed hosts: an allowed name is asked of this computer's
// resolver, and its addresses are admitted into the rules before the answer goes out; any other
// name is REFUSED without a question upstream. Against the tests' own resolver, over UDP and TCP.
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { startDnsAnswerer, upstreamResolver, type DnsAnswerer } from '../../../../../electron/host/sandbox/egress/dns-answerer.js';
import { startFakeResolver, type FakeResolver } from '../../../../support/fake-resolver.js';

const closing: (DnsAnswerer | FakeResolver)[] = [];
afterEach(async () => {
  for (const each of closing.splice(0)) await each.close();
});

async function askUdp(port: number, name: string): Promise<dnsPacket.DecodedPacket> {
  const socket = dgram.createSocket('udp4');
  const reply = new Promise<Buffer>((resolve) => socket.once('message', resolve));
  socket.send(dnsPacket.encode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name }] }), port, '127.0.0.1');
  const answer = dnsPacket.decode(await reply);
  socket.close();
  return answer;
}

async function askTcp(port: number, name: string): Promise<dnsPacket.DecodedPacket> {
  const socket = net.connect(port, '127.0.0.1');
  const query = dnsPacket.encode({ type: 'query', id: 9, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name }] });
  const length = Buffer.alloc(2);
  length.writeUInt16BE(query.length);
  socket.write(Buffer.concat([length, query]));
  let data = Buffer.alloc(0);
  await new Promise<void>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0)) resolve();
    }),
  );
  socket.destroy();
  return dnsPacket.decode(data.subarray(2));
}

// dns-packet's types leave out the decoded rcode, and type an answer's data per record kind.
const rcode = (packet: dnsPacket.DecodedPacket) => (packet as { rcode?: string }).rcode;
const dataOf = (record: dnsPacket.Answer) => (record as { data?: unknown }).data;

describe('the DNS answerer', () => {
  it('answers an allowed name after admitting its addresses, and refuses any other without asking upstream', async () => {
    const resolver = await startFakeResolver('127.0.0.1', 0, { 'allowed.test': '198.18.0.2', 'other.test': '198.18.0.3' });
    closing.push(resolver);
    const events: string[] = [];
    const answerer = await startDnsAnswerer(
      { host: '127.0.0.1', port: resolver.port },
      {
        allows: (name) => name === 'allowed.test',
        admit: async (name, addresses) => void events.push(`admit ${name} ${addresses.map((each) => each.address).join(',')}`),
        asked: (name, type, verdict) => void events.push(`${verdict} ${name} ${type}`),
      },
    );
    closing.push(answerer);
    const allowed = await askUdp(answerer.port, 'Allowed.Test');
    expect(allowed.answers?.map(dataOf)).toEqual(['198.18.0.2']);
    expect(events).toEqual(['admit allowed.test 198.18.0.2', 'allowed allowed.test A']);
    const refused = await askUdp(answerer.port, 'other.test');
    expect(rcode(refused)).toBe('REFUSED');
    expect(refused.id).toBe(7);
    expect(resolver.asked).toEqual(['Allowed.Test']);
    const overTcp = await askTcp(answerer.port, 'allowed.test');
    expect(overTcp.answers?.map(dataOf)).toEqual(['198.18.0.2']);
    expect(rcode(await askTcp(answerer.port, 'other.test'))).toBe('REFUSED');
  });

  it("answers SERVFAIL when this computer's resolver does not answer, and finds that resolver in resolv.conf", async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', () => resolve()));
    const answerer = await startDnsAnswerer({ host: '127.0.0.1', port: silent.address().port }, { allows: () => true, admit: async () => undefined, asked: () => undefined });
    closing.push(answerer);
    expect(rcode(await askUdp(answerer.port, 'slow.test'))).toBe('SERVFAIL');
    silent.close();
    expect(upstreamResolver('/nonexistent')).toBeUndefined();
  }, 15_000);
});
