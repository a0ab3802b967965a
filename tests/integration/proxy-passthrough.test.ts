// Everything but roots passes through the proxy unchanged. The reference is a direct session with
// the same server and the same folders; both sides get the same bytes from a bare JSON-RPC host,
// and every message they send back must be equal (JSON-equal: the proxy re-serializes, so key
// order may differ, and a host parses anyway).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listLiveProxies } from '../../electron/host/status/proxy-status.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { addRoot, editRegistry } from '../support/host-harness.js';
import { EVERYTHING_ENTRY, FILESYSTEM_ENTRY, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { RawPeer, type RawMessage } from './raw-peer.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const PROXY_ENTRY = path.join(repoRoot, 'electron/proxy/proxy-main.ts');
const peers: RawPeer[] = [];

afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
  removeTempDirs();
});

async function registryWith(name: string, transport: StdioTransportConfig, folders: string[]): Promise<string> {
  const configDir = tempDir('passthrough-config-');
  await editRegistry(configDir, async (editor) => {
    const rootIds = await Promise.all(folders.map((folder) => addRoot(editor, folder)));
    const server = await editor.addServer({ name, transport, enabled: true, sharing: true });
    await editor.setGrants([server.id], rootIds, true);
  });
  return configDir;
}

function peer(command: string, args: string[], answers?: Record<string, Record<string, unknown>>): RawPeer {
  const created = new RawPeer(command, args, { cwd: repoRoot, ...(answers ? { answers } : {}) });
  peers.push(created);
  return created;
}

const INITIALIZE = (capabilities: Record<string, unknown>) => ({
  protocolVersion: '2025-11-25',
  capabilities,
  clientInfo: { name: 'raw-host', version: '1.0.0' },
});

/** Runs the same script on both sessions and returns each response, keyed by request id. */
async function both(direct: RawPeer, proxied: RawPeer, id: string | number, method: string, params?: Record<string, unknown>) {
  const [a, b] = await Promise.all([direct.request(id, method, params), proxied.request(id, method, params)]);
  return { direct: a, proxied: b };
}

describe('the proxy passes everything but roots through unchanged', () => {
  it('server-filesystem: tool calls, tool errors, protocol errors, unknown tools, string ids, ping', async () => {
    const folder = tempDir('shared-');
    const outside = tempDir('outside-');
    fs.writeFileSync(path.join(folder, 'hello.txt'), 'hello, roots\n');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'not for you\n');
    const configDir = await registryWith('filesystem', { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY], env: {} }, [folder]);

    // The reference host gives the folder itself (as an argument and as its roots); the proxied host gives nothing.
    const roots = { roots: [{ uri: pathToFileURL(folder).href }] };
    const direct = peer(process.execPath, [FILESYSTEM_ENTRY, folder], { 'roots/list': roots });
    const proxied = peer(process.execPath, ['--import', 'tsx', PROXY_ENTRY, '--config-dir', configDir, 'filesystem']);

    const init = await Promise.all([
      direct.request(0, 'initialize', INITIALIZE({ roots: { listChanged: true } })),
      proxied.request(0, 'initialize', INITIALIZE({})),
    ]);
    expect(init[1]).toEqual(init[0]);
    direct.notify('notifications/initialized');
    proxied.notify('notifications/initialized');
    await waitFor(async () => (await listLiveProxies(configDir))[0]?.rootsRequestCount === 1, { what: 'the proxied server to ask' });

    const calls: [string | number, string, Record<string, unknown> | undefined][] = [
      [1, 'tools/list', undefined],
      [2, 'tools/call', { name: 'list_allowed_directories', arguments: {} }],
      [3, 'tools/call', { name: 'read_text_file', arguments: { path: path.join(folder, 'hello.txt') } }],
      [4, 'tools/call', { name: 'read_text_file', arguments: { path: path.join(outside, 'secret.txt') } }],
      [5, 'tools/call', { name: 'no_such_tool', arguments: {} }],
      [6, 'no/such-method', { anything: [1, 2, 3] }],
      ['string-id-7', 'ping', undefined],
      [8, 'tools/call', { name: 'read_text_file', arguments: {} }],
      [9, 'resources/list', undefined],
    ];
    for (const [id, method, params] of calls) {
      const { direct: a, proxied: b } = await both(direct, proxied, id, method, params);
      expect(b, `${method} #${id}`).toEqual(a);
    }
    // The interesting ones really are errors, on both sides.
    const outsideRead = proxied.received.find((message) => message.id === 4);
    expect(outsideRead?.result?.isError).toBe(true);
    expect(JSON.stringify(outsideRead)).toContain('Access denied');
    expect(proxied.received.find((message) => message.id === 6)?.error?.code).toBe(-32601);

    // Whatever else the server sent (notifications) matches too; the proxied host never saw a roots request.
    const unsolicited = (peerOf: RawPeer) => peerOf.received.filter((message) => message.id === undefined);
    expect(unsolicited(proxied)).toEqual(unsolicited(direct));
    expect(proxied.received.some((message) => message.method === 'roots/list')).toBe(false);
    expect(direct.answered.map((message) => message.method)).toEqual(['roots/list']);
  });

  it('server-everything: progress, logging, cancellation and server-to-host requests (sampling)', async () => {
    const folder = tempDir('everything-');
    const configDir = await registryWith(
      'everything',
      { type: 'stdio', command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env: {} },
      [folder],
    );
    const sampling = { role: 'assistant', content: { type: 'text', text: 'sampled by the host' }, model: 'test-model', stopReason: 'endTurn' };
    const roots = { roots: [{ uri: pathToFileURL(folder).href, name: path.basename(folder) }] };
    const direct = peer(process.execPath, [EVERYTHING_ENTRY, 'stdio'], { 'roots/list': roots, 'sampling/createMessage': sampling });
    const proxied = peer(process.execPath, ['--import', 'tsx', PROXY_ENTRY, '--config-dir', configDir, 'everything'], {
      'sampling/createMessage': sampling,
    });

    const init = await Promise.all([
      direct.request(0, 'initialize', INITIALIZE({ roots: { listChanged: true }, sampling: {} })),
      proxied.request(0, 'initialize', INITIALIZE({ sampling: {} })),
    ]);
    expect(init[1]).toEqual(init[0]);
    direct.notify('notifications/initialized');
    proxied.notify('notifications/initialized');
    // server-everything logs "Roots updated" once it has the roots: wait for it on both sides.
    const rootsLogged = (message: RawMessage) => message.method === 'notifications/message' && JSON.stringify(message.params).includes('Roots updated');
    await Promise.all([direct.waitFor(rootsLogged), proxied.waitFor(rootsLogged)]);

    const { direct: toolsA, proxied: toolsB } = await both(direct, proxied, 1, 'tools/list');
    expect(toolsB).toEqual(toolsA);

    const echo = await both(direct, proxied, 2, 'tools/call', { name: 'get-roots-list', arguments: {} });
    expect(echo.proxied).toEqual(echo.direct);
    expect(JSON.stringify(echo.proxied)).toContain(pathToFileURL(folder).href);

    // Progress notifications carry the host's token through, in order.
    const longRun = { name: 'trigger-long-running-operation', arguments: { duration: 0.4, steps: 4 }, _meta: { progressToken: 'tok-1' } };
    const progress = await both(direct, proxied, 3, 'tools/call', longRun);
    expect(progress.proxied).toEqual(progress.direct);
    const progressOf = (of: RawPeer) => of.received.filter((message) => message.method === 'notifications/progress');
    expect(progressOf(proxied)).toHaveLength(4);
    expect(progressOf(proxied)).toEqual(progressOf(direct));

    // A server-to-host request (sampling) goes to the host, and its answer back to the server.
    const sampled = await both(direct, proxied, 4, 'tools/call', { name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 5 } });
    expect(sampled.proxied).toEqual(sampled.direct);
    expect(JSON.stringify(sampled.proxied)).toContain('sampled by the host');
    expect(proxied.answered.map((message) => message.method)).toEqual(['sampling/createMessage']);

    // Cancellation: the host cancels, the server never answers the cancelled call, on either side.
    for (const of of [direct, proxied]) {
      of.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 2 } } });
      of.notify('notifications/cancelled', { requestId: 5, reason: 'the user changed their mind' });
    }
    const after = await both(direct, proxied, 6, 'ping');
    expect(after.proxied).toEqual(after.direct);
    // The same operation started after the cancelled one: once it is answered, the cancelled one
    // would have been answered too, had it not been cancelled.
    const later = await both(direct, proxied, 7, 'tools/call', { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 2 } });
    expect(later.proxied).toEqual(later.direct);
    expect(direct.received.some((message) => message.id === 5)).toBe(false);
    expect(proxied.received.some((message) => message.id === 5)).toBe(false);

    const unsolicited = (of: RawPeer) => of.received.filter((message) => message.id === undefined && message.method !== 'notifications/progress');
    expect(unsolicited(proxied)).toEqual(unsolicited(direct));
  });

  it('answers garbage from the host with a JSON-RPC parse error and keeps going', async () => {
    const configDir = await registryWith('filesystem', { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY], env: {} }, []);
    const proxied = peer(process.execPath, ['--import', 'tsx', PROXY_ENTRY, '--config-dir', configDir, 'filesystem']);
    proxied.sendLine('this is not json');
    expect(await proxied.waitFor((message) => message.error?.code === -32700)).toMatchObject({ id: null });
    const init = await proxied.request(0, 'initialize', INITIALIZE({}));
    expect(init.result?.serverInfo).toMatchObject({ name: 'secure-filesystem-server' });
    expect(await proxied.close()).toBe(0);
  });
});
