// An abstract Unix datagram socket listening outside every sandbox (an X11 or D-Bus stand-in for
// datagrams, which Node cannot make): python3 binds it and says a line per datagram it gets.
import { spawn } from 'node:child_process';
import { waitFor } from './wait-for.js';

export interface DatagramListener {
  /** How many datagrams reached it so far. */
  received(): number;
  close(): void;
}

export async function listenDatagrams(abstractName: string): Promise<DatagramListener> {
  const script = `
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind('\\0${abstractName}')
print('ready')
while True:
    s.recv(64); print('got')
`;
  const listener = spawn('/usr/bin/python3', ['-u', '-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let said = '';
  listener.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
  await waitFor(() => said.startsWith('ready'), { what: 'the datagram listener outside', timeoutMs: 30_000 });
  return { received: () => said.split('\n').filter((line) => line === 'got').length, close: () => listener.kill() };
}
