// A DNS server of the tests' own, on UDP: it answers every A question with one address and every
// other question with no record, and remembers the names it was asked. Made for names no real
// resolver knows ("anything.test"), so that an answer proves the question reached it.
import dgram from 'node:dgram';

export interface FakeResolver {
  asked: string[];
  close(): void;
}

/** Listens on `host`:`port` (port 53 needs root) and answers A questions with `address`. */
export async function startFakeResolver(host: string, port: number, address: string): Promise<FakeResolver> {
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
    const isA = query.readUInt16BE(questionEnd - 4) === 1;
    const header = Buffer.from(query.subarray(0, questionEnd));
    header[2] = 0x81; // a response, recursion desired
    header[3] = 0x80; // recursion available, no error
    header.writeUInt16BE(isA ? 1 : 0, 6);
    header.writeUInt16BE(0, 8);
    header.writeUInt16BE(0, 10);
    const octets = address.split('.').map(Number);
    const answer = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...octets]);
    socket.send(isA ? Buffer.concat([header, answer]) : header, from.port, from.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => resolve());
  });
  return { asked, close: () => socket.close() };
}
