// Broken and hostile servers: each one is contained, backed off, and disturbs no other server.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_INBOUND_LIMITS } from '../../electron/host/launch/inbound-limits.js';
import type { RootsHost } from '../../electron/host/roots-host.js';
import { addConnectedServer, addCountedServer, addRoot, callText, startHost, stopHosts } from '../support/host-harness.js';
import { allowedDirectories, filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';

const fixture = path.resolve(import.meta.dirname, '../fixtures/hostile-server.mjs');
const hostile = (mode: string, ...rest: string[]) => ({ type: 'stdio' as const, command: process.execPath, args: [fixture, mode, ...rest], env: {} });

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

/** A healthy neighbour whose view must stay right whatever the hostile server does. */
async function healthyNeighbour(host: RootsHost): Promise<{ id: string; folder: string }> {
  const folder = tempDir('neighbour-');
  const rootId = await addRoot(host, folder);
  const id = await addConnectedServer(host, 'neighbour', filesystemServer());
  await host.setGrants([id], [rootId], true, 'read-write');
  await waitFor(async () => allowedDirectories(await callText(host, id, 'list_allowed_directories')).includes(folder), {
    what: 'neighbour sees its folder',
  });
  return { id, folder };
}

async function neighbourStillFine(host: RootsHost, neighbour: { id: string; folder: string }): Promise<void> {
  expect(allowedDirectories(await callText(host, neighbour.id, 'list_allowed_directories'))).toEqual([neighbour.folder]);
}

function statusOf(host: RootsHost, id: string) {
  return host.getState().servers.find((server) => server.id === id)?.status;
}

describe('hostile servers', () => {
  it('a server that crashes at start is retried with growing delays, not in a busy loop', async () => {
    const delays = [100, 200, 400, 800];
    const host = await startHost({ connection: { reconnectDelaysMs: [...delays, 60_000] } });
    const neighbour = await healthyNeighbour(host);
    const { id: serverId, countFile: starts } = await addCountedServer(host, 'crasher', hostile('crash-at-start'));
    const times = await waitFor(
      () => {
        const lines = fs.existsSync(starts) ? fs.readFileSync(starts, 'utf8').trim().split('\n') : [];
        return lines.length >= 5 ? lines.map((line) => Number(line.split(' ')[1])) : undefined;
      },
      { what: 'five starts', timeoutMs: 30_000 },
    );
    await host.setEnabled(serverId, false);
    // Each retry waited at least its delay: growing pauses, never a busy loop (a slow machine only
    // makes the gaps longer).
    const gaps = times.slice(1).map((at, i) => at - (times[i] as number));
    gaps.forEach((gap, i) => expect(gap, `gap ${i}`).toBeGreaterThanOrEqual(delays[i] as number));
    // Identical consecutive errors fold into one entry with a count.
    const errors = host.activity(serverId).filter((entry) => entry.kind === 'error');
    expect(errors.reduce((sum, entry) => sum + (entry.count ?? 1), 0)).toBeGreaterThanOrEqual(4);
    await neighbourStillFine(host, neighbour);
  });

  it('a command that ends at once is held after five starts in a row, saying to check its command; Reconnect starts it again', async () => {
    const host = await startHost({ connection: { reconnectDelaysMs: [50, 50, 50, 50, 50, 50] } });
    // Not an MCP server at all: it ends before it could answer, every time (#30 item 6).
    const { id, countFile } = await addCountedServer(host, 'not a server', { type: 'stdio', command: process.execPath, args: ['-e', '1'], env: {} });
    const status = () => host.getState().servers.find((server) => server.id === id)?.status;
    await waitFor(() => status()?.held?.reason === 'exits-at-start', { what: 'the server held', timeoutMs: 60_000, explain: () => JSON.stringify(status()) });
    const starts = () => fs.readFileSync(countFile, 'utf8').trim().split('\n').length;
    expect(starts()).toBe(5);
    expect(status()?.nextRetryAt).toBeUndefined();
    expect(host.activity(id).some((entry) => entry.message.includes('Check its command: is it an MCP server that speaks over stdio?'))).toBe(true);
    await host.reconnect(id);
    await waitFor(() => starts() >= 6, { what: 'a start on Reconnect' });
  });

  it('a server that crashes later is reconnected', async () => {
    const host = await startHost({ connection: { reconnectDelaysMs: [100, 200] } });
    const server = await host.addServer({ name: 'crash-later', transport: hostile('crash-later'), enabled: true, sharing: true });
    await waitFor(() => host.activity(server.id).filter((entry) => entry.kind === 'connect').length >= 2, {
      what: 'a second connect after the crash',
    });
    expect(host.activity(server.id).some((entry) => entry.kind === 'disconnect')).toBe(true);
  });

  it('a server that hangs on initialize times out', async () => {
    const host = await startHost({ connection: { probeTimeoutMs: 200, connectTimeoutMs: 800, reconnectDelaysMs: [60_000] } });
    const server = await host.addServer({ name: 'hang', transport: hostile('hang'), enabled: true, sharing: true });
    await waitFor(() => statusOf(host, server.id)?.state === 'error', { what: 'timeout error', timeoutMs: 5000 });
    expect(statusOf(host, server.id)?.error).toMatch(/time/i);
  });

  it('garbage on stdout does not break the session', async () => {
    const host = await startHost();
    const id = await addConnectedServer(host, 'garbage', hostile('garbage'));
    expect(await callText(host, id, 'report')).toBe('[]');
  });

  it('a huge line is refused (bounded buffer) and the server is reconnected', async () => {
    const host = await startHost({ connection: { reconnectDelaysMs: [100] } });
    const neighbour = await healthyNeighbour(host);
    const before = process.memoryUsage().rss;
    const server = await host.addServer({ name: 'huge', transport: hostile('huge-line'), enabled: true, sharing: true });
    await waitFor(() => host.activity(server.id).filter((entry) => entry.kind === 'connect').length >= 2, {
      what: 'reconnect after the oversized line',
    });
    await host.setEnabled(server.id, false);
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
    await neighbourStillFine(host, neighbour);
  });

  it('a roots/list flood is read at a limited pace, every request still answered, and the status says so', async () => {
    const host = await startHost();
    const neighbour = await healthyNeighbour(host);
    // 800 requests at 5,000 a second, four times the burst the host reads at once. Over its rate
    // for 1 s, it is paused (1 s, then 2 s), and still answered in full: a longer flood is closed
    // after its pauses (tests/integration/inbound-limits.test.ts).
    const id = await addConnectedServer(host, 'flood', hostile('flood-roots', '0', '800'));
    await waitFor(() => (statusOf(host, id)?.rootsRequestCount ?? 0) > 600, { what: 'a flood', timeoutMs: 60_000 });
    await neighbourStillFine(host, neighbour);
    expect(statusOf(host, id)?.limited).toMatchObject({ kind: 'message-rate' });
    expect(host.activity(id).some((entry) => entry.kind === 'error' && /messages a second/.test(entry.message))).toBe(true);
    // Limited, not dropped: every request of the flood is answered, with an empty list (nothing granted).
    await waitFor(
      async () => {
        const flood = JSON.parse(await callText(host, id, 'flood')) as { sent: number; answered: number; done: boolean };
        return flood.done && flood.answered === flood.sent;
      },
      { what: 'every flood request answered', timeoutMs: 90_000 },
    );
    const replies = JSON.parse(await callText(host, id, 'report')) as { result?: { roots: unknown[] } }[];
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.every((reply) => Array.isArray(reply.result?.roots))).toBe(true);
    expect(host.activity(id).some((entry) => /not read at all for 1 s \(pause 1 of 4\)/.test(entry.message))).toBe(true);
    expect(host.activity(id).filter((entry) => entry.kind === 'connect')).toHaveLength(1);
    expect(host.activity(id).length).toBeLessThanOrEqual(300);
    expect(host.getState().consentRequests.filter((request) => request.serverId === id)).toHaveLength(1);
    // How much the flood delays another server's update: the benchmark's isolation figures.
  });

  it('a flood as fast as the pipe allows is read no faster than its limit, while a neighbour gets a grant change', async () => {
    const host = await startHost();
    const neighbour = await healthyNeighbour(host);
    const id = await addConnectedServer(host, 'flood', hostile('flood-roots-max'));
    const connectedAt = host.activity(id).find((entry) => entry.kind === 'connect')?.at as number;
    await waitFor(() => statusOf(host, id)?.limited?.kind === 'message-rate', { what: 'the flood limited', timeoutMs: 60_000 });

    // The neighbour's update goes through while the flood runs.
    const more = tempDir('neighbour-more-');
    const moreId = await addRoot(host, more);
    await host.setGrants([neighbour.id], [moreId], true, 'read-write');
    await waitFor(async () => allowedDirectories(await callText(host, neighbour.id, 'list_allowed_directories')).includes(more), {
      what: 'the neighbour sees its new folder during the flood',
    });

    // What was read is bounded by the limit over the time it ran (its burst, then its rate).
    const read = statusOf(host, id)?.rootsRequestCount ?? 0;
    const seconds = (Date.now() - connectedAt) / 1000;
    const { burst, messagesPerSecond } = DEFAULT_INBOUND_LIMITS;
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThanOrEqual(burst + messagesPerSecond * seconds);
    await host.setEnabled(id, false);
  });

  it('a line that never ends: the session is closed, the server started again after a pause, the status says why', async () => {
    const host = await startHost({ connection: { reconnectDelaysMs: [300, 60_000] } });
    const neighbour = await healthyNeighbour(host);
    const before = process.memoryUsage().rss;
    const server = await host.addServer({ name: 'endless', transport: hostile('endless-line'), enabled: true, sharing: true });
    await waitFor(() => host.activity(server.id).filter((entry) => entry.kind === 'connect').length >= 2, {
      what: 'a second session after the endless line',
      timeoutMs: 60_000,
    });
    expect(statusOf(host, server.id)?.limited).toMatchObject({ kind: 'long-line' });
    expect(host.activity(server.id).some((entry) => entry.kind === 'error' && /line longer than 10 MB/.test(entry.message))).toBe(true);
    // The second session ends the same way, and then it waits for the next retry (60 s here).
    await waitFor(() => statusOf(host, server.id)?.nextRetryAt !== undefined && statusOf(host, server.id)?.state !== 'connected', {
      what: 'the second session closed too',
      timeoutMs: 60_000,
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
    await neighbourStillFine(host, neighbour);
    await host.setEnabled(server.id, false);
  });

  it('requests the host does not support get proper JSON-RPC errors', async () => {
    const host = await startHost();
    const id = await addConnectedServer(host, 'unsupported', hostile('unsupported'));
    const replies = await waitFor(
      async () => {
        const parsed = JSON.parse(await callText(host, id, 'report')) as { id: string; error?: { code: number } }[];
        return parsed.length >= 4 ? parsed : undefined;
      },
      { what: 'four replies' },
    );
    for (const reply of replies) expect(reply.error?.code, reply.id).toBe(-32601);
  });
});
