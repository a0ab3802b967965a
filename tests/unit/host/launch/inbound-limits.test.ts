// The read buffer that limits what one stdio server may cost the app. Here it is driven the way the
// SDK's stdio transport drives its own buffer (append a chunk, then read messages until null), with
// a real stream standing in for the child's stdout so pausing can be seen. Through real processes:
// tests/integration/hostile-servers.test.ts; how much it saves: bench section 10.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { InboundLimiter, type InboundLimits } from '../../../../electron/host/launch/inbound-limits.js';
import type { InboundLimitation } from '../../../../shared/domain.js';
import { waitFor } from '../../../support/index.js';

const small: InboundLimits = { messagesPerSecond: 200, burst: 10, perTurn: 4, maxLineBytes: 1024 };

/** A limiter installed in something shaped like the SDK transport: it records what it delivers. */
function driven(limits: InboundLimits = small) {
  const limiter = new InboundLimiter(limits);
  const stdout = new PassThrough();
  const delivered: JSONRPCMessage[] = [];
  const limitations: InboundLimitation[] = [];
  const transport = {
    _readBuffer: undefined as unknown,
    _process: { stdout },
    // What the SDK's processReadBuffer does: read until null.
    processReadBuffer() {
      for (let message = limiter.readMessage(); message !== null; message = limiter.readMessage()) delivered.push(message);
    },
  };
  limiter.install(transport as never);
  limiter.on('limited', (limitation) => limitations.push(limitation));
  stdout.resume();
  const feed = (text: string) => {
    limiter.append(Buffer.from(text));
    transport.processReadBuffer();
  };
  return { limiter, stdout, delivered, limitations, feed, transport };
}

const request = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'roots/list' })}\n`;

describe('InboundLimiter', () => {
  it('frames lines across chunks, drops what is not JSON, and takes CRLF', () => {
    const { delivered, feed } = driven();
    const text = `${request(1)}not json at all\n${request(2).replace('\n', '\r\n')}`;
    for (const piece of [text.slice(0, 7), text.slice(7, 40), text.slice(40)]) feed(piece);
    expect(delivered.map((message) => (message as { id: number }).id)).toEqual([1, 2]);
  });

  it('hands over at most perTurn messages at a time, then the rest on later turns', async () => {
    const { delivered, feed, stdout } = driven();
    feed(Array.from({ length: 8 }, (_, i) => request(i)).join(''));
    // This turn: perTurn (4). Reading stops while the rest waits.
    expect(delivered).toHaveLength(4);
    expect(stdout.isPaused()).toBe(true);
    await waitFor(() => delivered.length === 8, { what: 'the rest on later turns' });
    expect(delivered.map((message) => (message as { id: number }).id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(stdout.isPaused()).toBe(false);
  });

  it('reads a flood at its rate: the burst at once, the rest as tokens come back, and says so once', async () => {
    const { delivered, feed, limitations, stdout } = driven({ ...small, perTurn: 100 });
    const start = performance.now();
    feed(Array.from({ length: 30 }, (_, i) => request(i)).join(''));
    // The burst at once, and never more than the bucket allows: burst + rate x time (on a loaded
    // machine the feed itself takes a few ms, in which a token may come back).
    const elapsed = performance.now() - start;
    expect(delivered.length).toBeGreaterThanOrEqual(10);
    expect(delivered.length).toBeLessThanOrEqual(10 + Math.floor((elapsed * 200) / 1000));
    expect(stdout.isPaused()).toBe(true);
    expect(limitations.map((limitation) => limitation.kind)).toEqual(['message-rate']);
    expect(limitations[0]?.event).toEqual({ code: 'read-paced', params: { rate: 200 } });
    await waitFor(() => delivered.length === 30, { what: 'every message, at the rate' });
    // 20 messages past the burst at 200/s cannot have taken less than 100 ms (a floor, not a limit).
    expect(performance.now() - start).toBeGreaterThanOrEqual(95);
    expect(limitations).toHaveLength(1);
    expect(stdout.isPaused()).toBe(false);
  });

  it('a server over its rate for longer than afterMs is not read at all for a pause, then read again: late, not dropped', async () => {
    // afterMs well above the limiter's own waits for tokens (4 at 200/s: 20 ms): a late timer on a
    // loaded machine looks like a spell under the rate, which only makes it more lenient.
    const penalties = { afterMs: 200, pausesMs: [300, 300, 300] };
    const { delivered, feed, limitations, stdout } = driven({ ...small, penalties });
    const pausedAt: number[] = [];
    const counts: number[] = [];
    feed(Array.from({ length: 100 }, (_, i) => request(i)).join(''));
    // 10 at once, then 90 at 200/s (450 ms of reading): over the rate for longer than 200 ms.
    await waitFor(() => limitations.some((limitation) => limitation.event.code === 'read-paused'), { what: 'a pause' });
    pausedAt.push(performance.now());
    counts.push(delivered.length);
    expect(stdout.isPaused()).toBe(true);
    await waitFor(() => delivered.length === 100, { what: 'every message, after the pause' });
    expect(delivered.map((message) => (message as { id: number }).id)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    // Nothing was read during the pause: the rest came at least 300 ms later (a floor, not a limit).
    expect(counts[0]).toBeLessThan(100);
    expect(performance.now() - (pausedAt[0] as number)).toBeGreaterThanOrEqual(295);
    // Held back, then paused (once or twice, as the timers fall on a loaded machine), never closed.
    expect(limitations.length).toBeGreaterThanOrEqual(2);
    expect(limitations.every((limitation) => limitation.kind === 'message-rate')).toBe(true);
    expect(limitations[1]?.event).toMatchObject({ code: 'read-paused', params: { pauseSeconds: 0.3, pause: 1, count: 3 } });
    expect(stdout.isPaused()).toBe(false);
  });

  it('a server still flooding after its last pause is reported as a flood, and nothing more is read', async () => {
    const penalties = { afterMs: 200, pausesMs: [50, 100] };
    const { limiter, delivered, feed, limitations, stdout } = driven({ ...small, penalties });
    // Enough for 10 s at 200/s: found flooding three times over (~0.8 s) long before it runs out.
    feed(Array.from({ length: 2000 }, (_, i) => request(i)).join(''));
    await waitFor(() => limitations.some((limitation) => limitation.kind === 'flood'), { what: 'the flood reported' });
    expect(limitations.map((limitation) => limitation.kind)).toEqual(['message-rate', 'message-rate', 'message-rate', 'flood']);
    expect(limitations.at(-1)?.event).toMatchObject({ code: 'flood-closed', params: { count: 2 } });
    expect(stdout.isPaused()).toBe(true);
    const read = delivered.length;
    expect(read).toBeLessThan(2000);
    // What it writes after that is not even looked at.
    feed(request(1000));
    expect(delivered).toHaveLength(read);
    limiter.clear();
  });

  it('a server within its rate is never held back, however long it goes on', async () => {
    const { delivered, feed, limitations } = driven({ ...small, penalties: { afterMs: 200, pausesMs: [1000] } });
    // 2 messages every 20 ms: 100/s, half the rate, for 60 rounds.
    let next = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        feed(request(next++) + request(next++));
        if (next >= 120) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
    });
    await waitFor(() => delivered.length === 120, { what: 'every message' });
    expect(limitations).toEqual([]);
  });

  it('ends the session on a line longer than the limit, says so, and reads nothing after', () => {
    const { limiter, delivered, limitations, feed, stdout } = driven();
    feed(request(1));
    expect(() => {
      for (let i = 0; i < 10; i++) feed('x'.repeat(200));
    }).toThrow(/line longer than/);
    expect(limitations.map((limitation) => limitation.kind)).toEqual(['long-line']);
    expect(stdout.isPaused()).toBe(true);
    // What comes after is not even looked at: no new line, no message, no second error.
    feed(`${'y'.repeat(5000)}\n${request(2)}`);
    expect(delivered.map((message) => (message as { id: number }).id)).toEqual([1]);
    expect(limitations).toHaveLength(1);
    limiter.clear();
  });

  it('assembles a long line from many small chunks', () => {
    // A line just under the limit, in 1-byte chunks: the SDK's buffer copies and re-scans all that
    // came before at every chunk (quadratic; bench section 10 measures both).
    const { delivered, feed } = driven({ ...small, maxLineBytes: 64 * 1024 });
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'z'.repeat(60_000) } });
    for (const char of body) feed(char);
    feed('\n');
    expect(delivered).toHaveLength(1);
  });

  it('refuses to take the place of a read buffer it does not recognise', () => {
    expect(() => new InboundLimiter().install({} as never)).toThrow(/SDK stdio transport changed/);
  });
});
