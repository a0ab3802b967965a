// A DNS server of the tests' own, on UDP: it answers every A question with one address (or, given
// a map, the names it knows with theirs and any other with NXDOMAIN) and every other question with
// no record, and remembers the names it was asked. Made for names no real resolver knows
// ("anything.test"), so that an answer proves the question reached it.
import dgram from 'node:dgram';

export interface FakeResolver {
  asked: string[];
  /** The port it listens on (the one asked for, or the one given for 0). */
  port: number;
  close(): void;
}

/** Listens on `host`:`port` (port 53 needs root; 0 for any) and answers A questions with `address`, or by `names`. */
export async function startFakeResolver(host: string, port: number, address: string | Readonly<Record<string, string>>): Promise<FakeResolver> {
  const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  const asked: string[] = [];
  socket.on('message', (query, from) => {
    // The question's name: labels from byte 12 up to a zero length, then type and class.
    const labels: string[] = [];
    let at = 12;
    while (at < query.length && query[at] !== 0) {
      const length = query[at] as number;
      labels.push(query.subarray(at + 1, at + 1 + length).toString('latin1'));
      at += length + 1;
    }
    const questionEnd = at + 5;
    if (questionEnd > query.length) return;
    asked.push(labels.join('.'));
    const name = labels.join('.').toLowerCase();
    const known = typeof address === 'string' ? address : address[name];
    const isA = query.readUInt16BE(questionEnd - 4) === 1 && known !== undefined;
    const header = Buffer.from(query.subarray(0, questionEnd));
    header[2] = 0x81; // a response, recursion desired
    header[3] = known === undefined ? 0x83 : 0x80; // recursion available; NXDOMAIN for a name it does not know
    header.writeUInt16BE(isA ? 1 : 0, 6);
    header.writeUInt16BE(0, 8);
    header.writeUInt16BE(0, 10);
    const octets = (known ?? '0.0.0.0').split('.').map(Number);
    const answer = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...octets]);
    socket.send(isA ? Buffer.concat([header, answer]) : header, from.port, from.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => resolve());
  });
  return { asked, port: socket.address().port, close: () => socket.close() };
}
