// Anyone on the machine can open sockets to `serve` without the token. A flood of idle ones must
// neither starve the real page nor stay open: strangers are capped (oldest dropped) and timed out.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../electron/serve/connection-guard.js';
import { MAX_EVENT_SOCKETS } from '../../../electron/serve/serve-server.js';
import { waitFor } from '../../support/wait-for.js';
import { getState, openEvents, startFixture, type Fixture } from './serve-fixture.js';

let fixture: Fixture | undefined;
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await fixture?.close();
  fixture = undefined;
});

/** Opens `count` TCP connections that never send a byte; resolves once each is connected or refused. */
async function openIdle(port: number, count: number): Promise<{ closed: () => number }> {
  let closed = 0;
  await Promise.all(
    Array.from({ length: count }, () => {
      const socket = net.connect({ host: '127.0.0.1', port });
      sockets.push(socket);
      socket.on('error', () => {});
      socket.on('close', () => closed++);
      return new Promise<void>((resolve) => {
        socket.once('connect', resolve);
        socket.once('close', () => resolve());
      });
    }),
  );
  return { closed: () => closed };
}

describe('serve: connections without the token', () => {
  it('1,000 idle connections: the real client is still answered, strangers stay capped, and all of them are released', { timeout: 120_000 }, async () => {
    fixture = await startFixture();
    const { serve } = fixture;
    const idle = await openIdle(serve.port, 1_000);

    // The real page: a call and its event socket, on new connections, while the flood sits there.
    expect((await getState(serve)).roots).toEqual([]);
    const events = await openEvents(serve);
    await events.next((message) => message.event === 'state');
    expect(serve.strangerCount).toBeLessThanOrEqual(DEFAULT_LIMITS.maxStrangers);

    // Every idle socket is closed by the server: the oldest at once past the cap, the rest after
    // the first-byte timeout (5 s). Generous wait: the machine may be loaded.
    await waitFor(() => idle.closed() === 1_000, { what: 'the idle sockets to be released', timeoutMs: 30_000 });
    expect(serve.strangerCount).toBe(0);
    const open = () => new Promise<number>((resolve, reject) => serve.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    // Only the event socket (trusted, and kept) is left once the call's kept-alive socket idles out.
    await waitFor(async () => (await open()) === 1, { what: 'only the event socket to remain', timeoutMs: 30_000 });
    expect(events.socket.readyState).toBe(events.socket.OPEN);
    expect((await getState(serve)).roots).toEqual([]);
    events.socket.close();
  });

  it('a request whose headers never finish gets 408 and is closed (slow loris)', async () => {
    fixture = await startFixture({ limits: { headersMs: 1_000 } });
    const socket = net.connect({ host: '127.0.0.1', port: fixture.serve.port });
    sockets.push(socket);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${fixture.serve.port}\r\nX-Slow: `);
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it(`refuses a WebSocket past ${MAX_EVENT_SOCKETS} open pages with 503, and takes one again when a page leaves`, async () => {
    fixture = await startFixture();
    const { serve } = fixture;
    const pages = [];
    for (let i = 0; i < MAX_EVENT_SOCKETS; i++) pages.push(await openEvents(serve));
    await expect(openEvents(serve)).rejects.toMatchObject({ status: 503 });
    pages.pop()!.socket.close();
    await waitFor(async () => openEvents(serve).then((page) => pages.push(page)).catch(() => false), { what: 'a free slot' });
    for (const page of pages) page.socket.close();
  });
});
