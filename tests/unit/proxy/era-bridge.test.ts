// The era bridge's rules, message by message, with a scripted server: which opening it takes, what
// the host is answered, and what the server gets afterwards. (Real peers: proxy-eras.test.ts.)
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { EraBridge, type BridgePort, type OwnRequest } from '../../../electron/proxy/era-bridge.js';
import type { JsonObject, Message } from '../../../electron/proxy/json-rpc.js';

const DISCOVER = {
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  _meta: { [SERVER_INFO_META_KEY]: { name: 'srv', version: '2' } },
};

function setup(kind: 'stdio' | 'http', answers: Record<string, Message>, carriesRoots = true) {
  const asked: OwnRequest[] = [];
  const upstream: Message[] = [];
  const host: Message[] = [];
  const chosen: string[] = [];
  let opened: { initialize: Message; result: JsonObject } | undefined;
  const port: BridgePort = {
    transportKind: () => kind,
    carriesRoots: () => carriesRoots,
    request: async (message) => {
      asked.push(message);
      return answers[message.method] ?? { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' } };
    },
    sendUpstream: (message) => upstream.push(message),
    toHost: (message) => host.push(message),
    setUpstreamVersion: () => undefined,
    opened: (initialize, result) => (opened = { initialize, result }),
    chose: (era, reason) => chosen.push(`${era}:${reason}`),
  };
  return { bridge: new EraBridge(port), asked, upstream, host, chosen, opened: () => opened };
}

const hostInitialize: Message = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: { sampling: {}, elicitation: {} }, clientInfo: { name: 'old-host', version: '1' } },
};
const hostProbe: Message = {
  jsonrpc: '2.0',
  id: 'probe',
  method: 'server/discover',
  params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_INFO_META_KEY]: { name: 'new-host', version: '2' }, [CLIENT_CAPABILITIES_META_KEY]: { elicitation: {} } } },
};

describe('EraBridge', () => {
  it('2025-era host, 2026-07-28 HTTP server: answers initialize from discover and puts the envelope on every request', async () => {
    const t = setup('http', { 'server/discover': { jsonrpc: '2.0', result: DISCOVER } });
    expect(t.bridge.takesOpening(hostInitialize)).toBe(true);
    await t.bridge.open(hostInitialize);
    expect(t.host).toEqual([
      { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '2' } } },
    ]);
    expect(t.upstream).toEqual([]);
    expect(t.chosen).toEqual(['modern:remote-modern']);
    expect(t.bridge.fromHost({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    const call = t.bridge.fromHost({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 7 } } });
    expect(call?.params?._meta).toEqual({
      progressToken: 7,
      [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
      [CLIENT_INFO_META_KEY]: { name: 'old-host', version: '1' },
      // Roots declared; elicitation and sampling not (they would come back inside calls, which a 2025 host cannot answer).
      [CLIENT_CAPABILITIES_META_KEY]: { roots: {} },
    });
  });

  it('2025-era host, 2025-era HTTP server: the host’s initialize goes through as it came', async () => {
    const t = setup('http', {});
    expect(t.bridge.takesOpening(hostInitialize)).toBe(true);
    await t.bridge.open(hostInitialize);
    expect(t.upstream).toEqual([hostInitialize]);
    expect(t.host).toEqual([]);
    expect(t.bridge.bridging).toBe(false);
  });

  it('2026-era host, both-era stdio server: opens 2025-11-25 itself and tells the host to fall back', async () => {
    const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'srv', version: '2' } };
    const t = setup('stdio', { 'server/discover': { jsonrpc: '2.0', result: DISCOVER }, initialize: { jsonrpc: '2.0', result } });
    expect(t.bridge.takesOpening(hostProbe)).toBe(true);
    await t.bridge.open(hostProbe);
    expect(t.asked.map((request) => request.method)).toEqual(['server/discover', 'initialize']);
    expect(t.asked[1]?.params).toMatchObject({ capabilities: { elicitation: {}, roots: { listChanged: true } }, clientInfo: { name: 'new-host' } });
    expect(t.upstream).toEqual([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(t.host).toEqual([{ jsonrpc: '2.0', id: 'probe', error: expect.objectContaining({ code: -32601 }) }]);
    expect(t.chosen).toEqual(['legacy:folders-first']);
    expect(t.opened()?.result).toEqual(result);
    // The host's fallback handshake is answered from that session; its initialized is not sent twice.
    expect(t.bridge.fromHost({ jsonrpc: '2.0', id: 3, method: 'initialize', params: {} })).toBeUndefined();
    expect(t.host.at(-1)).toEqual({ jsonrpc: '2.0', id: 3, result });
    expect(t.bridge.fromHost({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    const call: Message = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x' } };
    expect(t.bridge.fromHost(call)).toBe(call);
  });

  it('2026-era host, 2026-07-28-only stdio server: the host gets the discover answer and its own era', async () => {
    const t = setup('stdio', {
      'server/discover': { jsonrpc: '2.0', result: DISCOVER },
      initialize: { jsonrpc: '2.0', error: { code: -32022, message: 'Unsupported protocol version' } },
    });
    expect(t.bridge.takesOpening(hostProbe)).toBe(true);
    await t.bridge.open(hostProbe);
    expect(t.host).toEqual([{ jsonrpc: '2.0', id: 'probe', result: DISCOVER }]);
    expect(t.chosen).toEqual(['modern:modern-only']);
    expect(t.bridge.bridging).toBe(false);
  });

  it('takes no opening that needs no bridge: host policy, folders as arguments, matching eras, later requests', () => {
    expect(setup('http', {}, false).bridge.takesOpening(hostInitialize)).toBe(false);
    expect(setup('stdio', {}).bridge.takesOpening(hostInitialize)).toBe(false);
    expect(setup('http', {}).bridge.takesOpening(hostProbe)).toBe(false);
    const once = setup('stdio', {});
    expect(once.bridge.takesOpening({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBe(false);
    expect(once.bridge.takesOpening(hostProbe)).toBe(false);
  });
});
