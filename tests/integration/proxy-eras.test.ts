// `mcp-roots proxy` talks to the server in the era that carries its folders, whatever the host
// speaks (electron/proxy/era-bridge.ts), with real hosts (the SDK client in either era) and real
// servers (v2-SDK fixtures over stdio and Streamable HTTP).
import type { Client } from '@modelcontextprotocol/client';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listLiveProxies } from '../../electron/host/status/proxy-status.js';
import type { TransportConfig } from '../../shared/domain.js';
import { addRoot, editRegistry } from '../support/host-harness.js';
import { startModernHttpServer, stopHttpServers } from '../support/http-fixture.js';
import { closeProxiedClients, proxiedClient } from '../support/proxied-client.js';
import { removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

afterEach(async () => {
  await closeProxiedClients();
  stopHttpServers();
  removeTempDirs();
});

async function registryWith(name: string, transport: TransportConfig, folders: string[]): Promise<{ configDir: string; serverId: string; rootIds: string[] }> {
  const configDir = tempDir('proxy-eras-config-');
  return editRegistry(configDir, async (editor) => {
    const rootIds = await Promise.all(folders.map((folder) => addRoot(editor, folder)));
    const server = await editor.addServer({ name, transport, enabled: true, sharing: true });
    await editor.setGrants([server.id], rootIds.slice(0, 1), true);
    return { configDir, serverId: server.id, rootIds };
  });
}

async function liveStatus(configDir: string, ready: (status: Awaited<ReturnType<typeof listLiveProxies>>[number]) => boolean) {
  return waitFor(async () => (await listLiveProxies(configDir)).find(ready), { what: 'the status file to show the session' });
}

describe('the proxy picks the era that carries the folders', () => {
  it('a 2025-era host in front of a 2026-07-28 server over Streamable HTTP: the server gets the registry folders', async () => {
    const url = await startModernHttpServer();
    const [a, b] = [tempDir('http-a-'), tempDir('http-b-')];
    const { configDir, serverId, rootIds } = await registryWith('modern-http', { type: 'http', url, headers: {} }, [a, b]);
    const client = await proxiedClient(configDir, 'modern-http', { era: 'legacy' });
    // The host spoke 2025 and was answered in 2025...
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(client.getServerVersion()?.name).toBe('modern-http-fixture');
    const listRoots = async (host: Client) => JSON.parse(toolText(await host.callTool({ name: 'list-roots', arguments: {} }))) as { uri: string }[];
    // ...while the server was asked in 2026-07-28, where its input_required round carries roots.
    expect((await listRoots(client)).map((root) => root.uri)).toEqual([pathToFileURL(a).href]);

    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootIds[1] as string], true));
    await waitFor(async () => (await listRoots(client)).length === 2, { what: 'the new grant on the next call' });
    const status = await liveStatus(configDir, (live) => live.eraReason === 'remote-modern');
    // The status describes the server's session: 2026-07-28, whatever the host speaks.
    expect(status).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', host: { name: 'test-host' } });
  });

  it('a 2026-era host in front of a both-era stdio server that reads roots only through the classic request: 2025-11-25 carries them', async () => {
    const [a, b] = [tempDir('classic-a-'), tempDir('classic-b-')];
    const classic: TransportConfig = { type: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'tests/fixtures/classic-roots-v2-server.mjs')], env: {}, cwd: repoRoot };
    const { configDir, serverId, rootIds } = await registryWith('ng-mcp-like', classic, [a, b]);
    const client = await proxiedClient(configDir, 'ng-mcp-like');
    // The host probed for 2026-07-28 and was told to fall back: the session is 2025-11-25 on both sides.
    expect(client.getProtocolEra()).toBe('legacy');
    const told = async () => JSON.parse(toolText(await client.callTool({ name: 'last-roots', arguments: {} }))) as { uris: string[] | null; error: string | null };
    await waitFor(async () => JSON.stringify((await told()).uris) === JSON.stringify([pathToFileURL(a).href]), { what: 'the granted folder' });

    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootIds[1] as string], true));
    await waitFor(async () => (await told()).uris?.length === 2, { what: 'the second grant' });
    expect((await told()).error).toBeNull();
    const status = await liveStatus(configDir, (live) => live.eraReason === 'folders-first');
    expect(status).toMatchObject({ era: 'legacy', host: { name: 'test-host' } });
  });
});
