// The proxy's routing rules, message by message, with a scripted server: the cases a real server
// rarely shows (mixed input_required rounds, cancelling a retried call, a restart mid-handshake).
import type { Transport } from '@modelcontextprotocol/client';
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../support/wait-for.js';
import { fileURLToPath } from 'node:url';
import type { Exposure } from '../../../electron/host/access/exposure.js';
import type { WireRoot } from '../../../shared/domain.js';
import type { Message } from '../../../electron/proxy/json-rpc.js';
import { RootsProxy, type RootsPolicy, type RootsProxyHooks } from '../../../electron/proxy/roots-proxy.js';
import type { HostChannel } from '../../../electron/proxy/stdio-channel.js';
import type { UpstreamHandlers } from '../../../electron/proxy/upstream.js';

const ROOTS: WireRoot[] = [{ uri: 'file:///work/a', name: 'a' }];

/** The exposure a registry would give for these wire roots (read-write grants). */
function exposureOf(roots: readonly WireRoot[]): Exposure {
  const folders = roots.map((root) => ({ rootId: root.uri, path: fileURLToPath(root.uri), serverPath: fileURLToPath(root.uri), mode: 'read-write' as const }));
  return { rootIds: folders.map((folder) => folder.rootId), roots, uris: roots.map((root) => root.uri), folders };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const waitUntil = (done: () => boolean) => waitFor(done, { what: 'the proxy to get there' });

/** A 2025-era host's handshake with the current server, through its first roots/list. */
async function handshake(t: ReturnType<typeof setup>): Promise<void> {
  t.fromHost({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h', version: '1' } } });
  t.fromServer({ id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } });
  t.fromHost({ method: 'notifications/initialized' });
  t.fromServer({ id: 'first', method: 'roots/list' });
  // Calls wait for the first-roots gate to settle: a ping that reaches the server shows it has.
  t.fromHost({ id: 'warm', method: 'ping' });
  await waitFor(() => t.server().sent.some((m) => m.id === 'warm'), { what: 'calls to go through' });
  t.fromServer({ id: 'warm', result: {} });
}

function setup(policy: RootsPolicy = 'registry', roots: () => readonly WireRoot[] = () => ROOTS, hooks: Partial<RootsProxyHooks> = {}, drainLimitMs?: number) {
  const toHost: Message[] = [];
  const servers: { sent: Message[]; handlers: UpstreamHandlers; closed: boolean }[] = [];
  const host: HostChannel = { send: (message) => toHost.push(message) };
  const proxy = new RootsProxy(
    host,
    {
      exposure: () => exposureOf(roots()),
      openUpstream: async (handlers) => {
        const server = { sent: [] as Message[], handlers, closed: false };
        servers.push(server);
        const transport = {
          start: async () => undefined,
          send: async (message: unknown) => void server.sent.push(message as Message),
          close: async () => void (server.closed = true),
        } as unknown as Transport;
        return { transport };
      },
      injectsRoots: () => false,
      transportKind: () => 'stdio' as const,
      statusChanged: () => undefined,
      log: () => undefined,
      ...hooks,
    },
    policy,
    undefined,
    drainLimitMs,
  );
  const fromHost = (message: Omit<Message, 'jsonrpc'>) => host.onmessage?.({ jsonrpc: '2.0', ...message });
  const server = () => servers.at(-1) as (typeof servers)[number];
  const fromServer = (message: Omit<Message, 'jsonrpc'>) => server().handlers.onmessage({ jsonrpc: '2.0', ...message });
  return { proxy, toHost, servers, server, fromHost, fromServer };
}

const modernMeta = (capabilities: Record<string, unknown> = {}) => ({
  _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_CAPABILITIES_META_KEY]: capabilities },
});

describe('RootsProxy', () => {
  it('declares roots in initialize, answers roots/list itself and drops the host’s own list_changed', async () => {
    const t = setup();
    await t.proxy.start();
    t.fromHost({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: {} }, clientInfo: { name: 'h', version: '1' } } });
    expect(t.server().sent[0]?.params?.capabilities).toEqual({ roots: { listChanged: true } });
    t.fromServer({ id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } });
    expect(t.toHost.at(-1)).toMatchObject({ id: 1, result: { serverInfo: { name: 's' } } });
    t.fromHost({ method: 'notifications/initialized' });
    t.fromServer({ id: 0, method: 'roots/list' });
    expect(t.server().sent.at(-1)).toEqual({ jsonrpc: '2.0', id: 0, result: { roots: ROOTS } });
    expect(t.toHost.some((m) => m.method === 'roots/list')).toBe(false);
    t.fromHost({ method: 'notifications/roots/list_changed' });
    expect(t.server().sent.some((m) => m.method === 'notifications/roots/list_changed')).toBe(false);
    expect(t.proxy.status).toMatchObject({ hostOffersRoots: true, rootsRequestCount: 1 });

    // A registry change: one list_changed until the server has asked again.
    t.proxy.rootsChanged(exposureOf([...ROOTS, { uri: 'file:///work/b', name: 'b' }]));
    t.proxy.rootsChanged(exposureOf([...ROOTS, { uri: 'file:///work/b', name: 'b' }]));
    expect(t.server().sent.filter((m) => m.method === 'notifications/roots/list_changed')).toHaveLength(1);
  });

  it("'host' policy: a plain pipe, roots/list goes to the host", async () => {
    const t = setup('host');
    await t.proxy.start();
    t.fromHost({ id: 1, method: 'initialize', params: { capabilities: {} } });
    expect(t.server().sent[0]?.params?.capabilities).toEqual({});
    t.fromServer({ id: 7, method: 'roots/list' });
    expect(t.toHost.at(-1)).toEqual({ jsonrpc: '2.0', id: 7, method: 'roots/list' });
  });

  it('2026-07-28: fulfils a roots-only round itself, under a proxy id, and maps the answer and a cancel back', async () => {
    const t = setup();
    await t.proxy.start();
    const params = { name: 'list-roots', arguments: {}, ...modernMeta() };
    t.fromHost({ id: 5, method: 'tools/call', params });
    expect(t.server().sent[0]?.params?._meta).toMatchObject({ [CLIENT_CAPABILITIES_META_KEY]: { roots: {} } });
    t.fromServer({ id: 5, result: { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } }, requestState: 'opaque' } });
    const retry = t.server().sent.at(-1) as Message;
    expect(retry.id).toMatch(/^mcp-roots-proxy:/);
    expect(retry.params).toMatchObject({ name: 'list-roots', inputResponses: { r: { roots: ROOTS } }, requestState: 'opaque' });
    expect(t.toHost).toEqual([]);

    t.fromHost({ method: 'notifications/cancelled', params: { requestId: 5 } });
    expect(t.server().sent.at(-1)?.params).toEqual({ requestId: retry.id });
    t.fromServer({ id: retry.id as string, result: { resultType: 'complete', content: [] } });
    expect(t.toHost).toEqual([{ jsonrpc: '2.0', id: 5, result: { resultType: 'complete', content: [] } }]);
  });

  it('2026-07-28: a mixed round goes to the host without the roots part, whose retry gets our roots added', async () => {
    const t = setup();
    await t.proxy.start();
    t.fromHost({ id: 9, method: 'tools/call', params: { name: 'x', ...modernMeta({ elicitation: {} }) } });
    t.fromServer({
      id: 9,
      result: { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' }, e: { method: 'elicitation/create', params: {} } } },
    });
    expect(t.toHost.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: { resultType: 'input_required', inputRequests: { e: { method: 'elicitation/create', params: {} } } },
    });
    t.fromHost({ id: 10, method: 'tools/call', params: { name: 'x', inputResponses: { e: { action: 'accept' } }, ...modernMeta() } });
    expect(t.server().sent.at(-1)?.params?.inputResponses).toEqual({ r: { roots: ROOTS }, e: { action: 'accept' } });
  });

  it('a server that keeps asking for roots gets cut off after 10 rounds', async () => {
    const t = setup();
    await t.proxy.start();
    t.fromHost({ id: 1, method: 'tools/call', params: { name: 'x', ...modernMeta() } });
    for (let round = 0; round <= 10; round++) {
      const last = t.server().sent.at(-1) as Message;
      t.fromServer({ id: last.id as string | number, result: { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } } });
    }
    expect(t.toHost.at(-1)).toMatchObject({ id: 1, error: { code: -32603 } });
  });

  it('a restart replays the handshake; a restart during the handshake resends the host’s initialize instead', async () => {
    let roots: readonly WireRoot[] = ROOTS;
    const t = setup('registry', () => roots);
    await t.proxy.start();
    t.fromHost({ id: 1, method: 'initialize', params: { capabilities: {} } });
    await t.proxy.restart('test');
    const second = t.server();
    expect(t.servers[0]?.closed).toBe(true);
    expect(second.sent[0]).toMatchObject({ id: 1, method: 'initialize', params: { capabilities: { roots: { listChanged: true } } } });
    expect(t.proxy.status.hostOffersRoots).toBe(false);
    t.fromServer({ id: 1, result: { protocolVersion: '2025-11-25' } });
    expect(t.toHost).toEqual([{ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25' } }]);
    t.fromHost({ method: 'notifications/initialized' });
    t.fromServer({ id: 0, method: 'roots/list' });
    t.fromHost({ id: 2, method: 'tools/call', params: { name: 'slow' } });

    // The last folder goes: restart, handshake replayed. The call was still held for the server's
    // first roots/list to settle, so it never reached the old process: the new one gets it.
    roots = [];
    t.proxy.rootsChanged(exposureOf([]));
    await tick();
    const third = t.server();
    expect(t.toHost.filter((m) => m.id === 2)).toEqual([]);
    const replay = third.sent[0] as Message;
    expect(replay).toMatchObject({ method: 'initialize', params: { capabilities: { roots: { listChanged: true } } } });
    expect(replay.id).toMatch(/^mcp-roots-proxy:/);
    t.fromServer({ id: replay.id as string, result: { protocolVersion: '2025-11-25' } });
    await tick();
    expect(third.sent.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(t.toHost.filter((m) => m.id === replay.id)).toEqual([]);
    expect(t.proxy.status.restartCount).toBe(2);
    t.fromServer({ id: 1, method: 'roots/list' });
    await waitUntil(() => third.sent.some((m) => m.id === 2 && m.method === 'tools/call'));
  });

  it('a restart waits for a running call, holds the next one for the new process, and fails none', async () => {
    const states: string[] = [];
    const t = setup('registry', () => ROOTS, { statusChanged: (status) => states.at(-1) !== status.state && states.push(status.state) });
    await t.proxy.start();
    await handshake(t);
    t.fromHost({ id: 2, method: 'tools/call', params: { name: 'slow' } });
    expect(t.server().sent.at(-1)).toMatchObject({ id: 2, method: 'tools/call' });
    const old = t.server();

    const restarted = t.proxy.restart('Config changed.');
    await tick();
    expect(t.proxy.status).toMatchObject({ state: 'draining', draining: { calls: 1, limitMs: 30_000, reason: 'Config changed.' } });
    t.fromHost({ id: 3, method: 'tools/call', params: { name: 'quick' } });
    expect(old.sent.some((m) => m.id === 3)).toBe(false);
    expect(t.servers).toHaveLength(1);

    // The running call finishes on the old process and reaches the host; then the restart goes on.
    t.fromServer({ id: 2, result: { content: [] } });
    expect(t.toHost.find((m) => m.id === 2)).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [] } });
    await waitUntil(() => t.servers.length === 2 && t.server().sent.length > 0);
    expect(old.closed).toBe(true);
    const fresh = t.server();
    const replay = fresh.sent[0] as Message;
    expect(replay).toMatchObject({ method: 'initialize' });
    t.fromServer({ id: replay.id as string, result: { protocolVersion: '2025-11-25' } });
    await restarted;
    t.fromServer({ id: 'r', method: 'roots/list' });
    await waitUntil(() => fresh.sent.some((m) => m.id === 3 && m.method === 'tools/call'));
    expect(t.toHost.filter((m) => m.error)).toEqual([]);
    expect(states).toEqual(['connecting', 'ready', 'draining', 'restarting', 'connecting', 'ready']);
  });

  it('past the drain limit, the call still running gets an error that says what happened and why', async () => {
    const lines: string[] = [];
    const t = setup('registry', () => ROOTS, { log: (line) => lines.push(line) }, 50);
    await t.proxy.start();
    await handshake(t);
    t.fromHost({ id: 2, method: 'tools/call', params: { name: 'endless' } });
    void t.proxy.restart('Sandbox turned on.');
    const answer = await waitFor(() => t.toHost.find((m) => m.id === 2), { what: 'the answer to the call' });
    expect(answer?.error?.message).toBe(
      'The server was restarted while this call ran, after waiting 0 s for it to finish (the most a restart waits). Why it restarted: Sandbox turned on.',
    );
    expect(answer?.error?.message).not.toMatch(/retry/i);
    expect(lines).toContain('Restarting when 1 running call finishes (at most 0 s). Sandbox turned on.');
    expect(lines.some((line) => line.startsWith('Ended 1 running call(s) with an error: The server was restarted while this call ran'))).toBe(true);
    await t.proxy.close();
  });

  it('a server that ends before answering: the host hears its exit code and to check its command', async () => {
    const logged: string[] = [];
    let handlers: UpstreamHandlers | undefined;
    const t = setup('registry', () => ROOTS, {
      log: (line) => void logged.push(line),
      openUpstream: async (given) => {
        handlers = given;
        const transport = { start: async () => undefined, send: async () => undefined, close: async () => undefined } as unknown as Transport;
        // `node -e 1`: not an MCP server, it exits at once with code 0.
        return { transport, exit: () => ({ code: 0, signal: null }) };
      },
    });
    await t.proxy.start();
    t.fromHost({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h', version: '1' } } });
    handlers?.onclose();
    const said = 'The server closed the connection. It exited with code 0 before answering. Check its command: is it an MCP server that speaks over stdio?';
    await waitUntil(() => t.toHost.some((message) => message.id === 1 && message.error?.message === said));
    expect(logged).toContain(said);
  });

  it('a session that closes while its calls drain does not restart', async () => {
    const t = setup();
    await t.proxy.start();
    await handshake(t);
    t.fromHost({ id: 2, method: 'tools/call', params: { name: 'slow' } });
    const restarted = t.proxy.restart('Config changed.');
    await tick();
    expect(t.proxy.status.state).toBe('draining');
    await t.proxy.close();
    await restarted;
    expect(t.servers).toHaveLength(1);
    expect(t.proxy.status.state).toBe('stopped');
  });

  it('forecasts what rootsChanged then does: the same policy, asked before the change', async () => {
    let roots: readonly WireRoot[] = ROOTS;
    const t = setup('registry', () => roots);
    await t.proxy.start();
    await handshake(t);
    const on = { enabled: true, sharing: true };
    // Its one folder: a grant is told (list_changed), a revoke restarts it so it forgets the folder.
    expect(t.proxy.changeForecast(on)).toEqual({ grant: undefined, revoke: 'forget' });
    // Off or not sharing, it is told no folders: nothing a grant does restarts it.
    expect(t.proxy.changeForecast({ enabled: false, sharing: true })).toEqual({});
    expect(t.proxy.changeForecast({ enabled: true, sharing: false })).toEqual({});
    roots = [];
    t.proxy.rootsChanged(exposureOf(roots));
    await waitUntil(() => t.servers.length === 2);
    await t.proxy.close();
    expect(t.proxy.changeForecast(on)).toBeUndefined();
  });

  it('forecasts a restart for every change of an argument-injected server, and nothing under the host’s roots', async () => {
    const injected = setup('registry', () => ROOTS, { injectsRoots: () => true });
    await injected.proxy.start();
    expect(injected.proxy.changeForecast({ enabled: true, sharing: true })).toEqual({ grant: 'arguments', revoke: 'arguments' });
    await injected.proxy.close();
    const passthrough = setup('host');
    await passthrough.proxy.start();
    expect(passthrough.proxy.changeForecast({ enabled: true, sharing: true })).toBeUndefined();
    await passthrough.proxy.close();
  });
});

