// The stdio transport's own requests, against a real child process that answers them: on time,
// late (after the wait), or not at all; and the one close that keeps the process running.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { InPlaceStdioClientTransport } from '../../../../electron/host/launch/stdio-client-transport.js';
import { waitFor } from '../../../support/index.js';

// Answers each request line after `delay` ms (from argv) with {"echo": method}; exits on "exit".
const ECHO = `
const delay = Number(process.argv[1] ?? 0);
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf('\\n')) >= 0) {
    const message = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    if (message.method === 'exit') process.exit(0);
    if (message.id !== undefined) setTimeout(() => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { echo: message.method } }) + '\\n'), delay);
  }
});
`;

const open: InPlaceStdioClientTransport[] = [];
function echoServer(delayMs: number): InPlaceStdioClientTransport {
  const transport = new InPlaceStdioClientTransport({ command: process.execPath, args: ['-e', ECHO, String(delayMs)] });
  open.push(transport);
  return transport;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((transport) => transport.close()));
});

describe('InPlaceStdioClientTransport', () => {
  it('answers its own requests to itself, never to the installed handler', async () => {
    const transport = echoServer(0);
    const seen: JSONRPCMessage[] = [];
    transport.onmessage = (message) => seen.push(message);
    await transport.start();
    const reply = await transport.ownRequest('server/discover', {}, 20_000);
    expect(reply).toMatchObject({ kind: 'answer', message: { result: { echo: 'server/discover' } } });
    // Another party's request passes through to the handler as before.
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    await waitFor(() => seen.length === 1, { what: 'the handler to get the answer to id 7' });
    expect(seen[0]).toMatchObject({ id: 7 });
  });

  it('keeps the pid it spawned after a close, where the SDK forgets it', async () => {
    const transport = echoServer(0);
    await transport.start();
    const pid = transport.pid;
    expect(pid).toEqual(expect.any(Number));
    await transport.close();
    expect([transport.pid, transport.spawnedPid]).toEqual([null, pid]);
  });

  it('hands an answer that comes after the wait to onLateAnswer, not to the handler', async () => {
    const transport = echoServer(300);
    const seen: JSONRPCMessage[] = [];
    const late: number[] = [];
    transport.onmessage = (message) => seen.push(message);
    transport.onLateAnswer = (_message, afterMs) => late.push(afterMs);
    await transport.start();
    expect(await transport.ownRequest('server/discover', {}, 1)).toEqual({ kind: 'timeout' });
    await waitFor(() => late.length === 1, { what: 'the late answer' });
    expect(late[0]).toBeGreaterThanOrEqual(250);
    expect(seen).toEqual([]);
  });

  it('settles a wait as closed when the child exits', async () => {
    const transport = echoServer(0);
    await transport.start();
    const pending = transport.ownRequest('never-answered-before-exit', {}, 20_000);
    await transport.send({ jsonrpc: '2.0', method: 'exit' });
    expect(await pending).toEqual({ kind: 'closed' });
    expect(transport.alive).toBe(false);
  });

  it('keeps the process through one held close, telling the session it is over', async () => {
    const transport = echoServer(0);
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.start();
    const pid = transport.pid;
    transport.keepProcessOnNextClose();
    await transport.close();
    expect(closes).toBe(1);
    expect(transport.alive).toBe(true);
    expect(transport.pid).toBe(pid);
    // A second start (the next handshake's) is a no-op on the running process, which still answers.
    await transport.start();
    expect(await transport.ownRequest('ping', {}, 20_000)).toMatchObject({ kind: 'answer' });
    await transport.close();
    await waitFor(() => !transport.alive, { what: 'the real close' });
  });
});
