// A server that asks for its roots once and ignores list_changed (Playwright's MCP server does; the
// fixture's `asks-once` mode does the same): every change still takes effect, through the app and
// through the proxy. It is told list_changed, does not ask again within the re-ask window, and is
// restarted; from then on it is restarted at once. With the sandbox on, a change restarts it for
// new mounts anyway: these servers run with it off, so the re-ask path is what is tested.
import type { Client } from '@modelcontextprotocol/client';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listLiveProxies } from '../../electron/host/status/proxy-status.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { addRoot, callText, editRegistry, startHost, stopHosts } from '../support/host-harness.js';
import { closeProxiedClients, proxiedClient } from '../support/proxied-client.js';
import { removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const asksOnce: StdioTransportConfig = {
  type: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures/roots-echo-server.mjs'), 'asks-once'],
  env: {},
};

interface Told {
  asked: number;
  uris: string[] | null;
}

afterEach(async () => {
  await closeProxiedClients();
  await stopHosts();
  removeTempDirs();
});

describe('a server that asks for its roots once', () => {
  it('through the app: a grant after the consent prompt, then a revoke, each reach it', async () => {
    const host = await startHost();
    const [a, b] = [tempDir('once-a-'), tempDir('once-b-')];
    const [rootA, rootB] = [await addRoot(host, a), await addRoot(host, b)];
    const { id } = await host.addServer({ name: 'asks-once', transport: asksOnce, enabled: true, sharing: true, sandbox: false });
    const status = () => host.getState().servers.find((server) => server.id === id)?.status;
    await waitFor(() => status()?.state === 'connected', { what: 'connected' });
    const told = async () => JSON.parse(await callText(host, id, 'last-roots')) as Told;
    // Each wait spans a restart (the old process closed, a new one spawned and initialized): slow on a
    // loaded machine, so generous, and a timeout shows what the server went through.
    const patience = {
      timeoutMs: 60_000,
      explain: () => `activity:\n${host.activity(id).map((entry) => `  ${new Date(entry.at).toISOString()} ${entry.kind}: ${entry.message}`).join('\n')}`,
    };

    // Its first tool call makes it ask: nothing granted, so [] and a consent prompt.
    expect(await told()).toEqual({ asked: 1, uris: [] });
    await waitFor(() => host.getState().consentRequests.some((request) => request.serverId === id), { what: 'the consent prompt' });

    // The person grants a folder: list_changed goes out, no roots/list follows, so it is restarted.
    await host.setGrants([id], [rootA], true);
    await waitFor(async () => JSON.stringify((await told()).uris) === JSON.stringify([pathToFileURL(a).href]), { what: 'the grant to reach it', ...patience });
    expect(status()?.rereadsRoots).toBe(false);
    expect(host.getState().consentRequests).toEqual([]);
    const notes = host.activity(id).filter((entry) => entry.code === 'no-reask');
    expect(notes).toHaveLength(1);

    // Learned: the revoke (and the grant with it) restart it at once, without waiting for a re-ask.
    const restartsBefore = host.activity(id).filter((entry) => entry.kind === 'restart').length;
    await host.setGrants([id], [rootA], false);
    await host.setGrants([id], [rootB], true);
    await waitFor(async () => JSON.stringify((await told()).uris) === JSON.stringify([pathToFileURL(b).href]), { what: 'the revoke to reach it', ...patience });
    expect(host.activity(id).filter((entry) => entry.kind === 'restart').length).toBeGreaterThan(restartsBefore);
    expect(host.activity(id).filter((entry) => entry.code === 'no-reask')).toHaveLength(1);
    expect(host.activity(id).filter((entry) => entry.kind === 'error')).toEqual([]);
  });

  it('through the proxy: a grant and a later revoke reach it, and its status file says it restarts to apply changes', async () => {
    const configDir = tempDir('once-proxy-config-');
    const a = tempDir('once-proxy-a-');
    const { serverId, rootId } = await editRegistry(configDir, async (editor) => {
      const root = await addRoot(editor, a);
      const server = await editor.addServer({ name: 'asks-once', transport: asksOnce, enabled: true, sharing: true, sandbox: false });
      return { serverId: server.id, rootId: root };
    });
    const client = await proxiedClient(configDir, 'asks-once');
    const told = async (host: Client) => JSON.parse(toolText(await host.callTool({ name: 'last-roots', arguments: {} }))) as Told;
    expect(await told(client)).toEqual({ asked: 1, uris: [] });

    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootId], true));
    await waitFor(async () => JSON.stringify((await told(client)).uris) === JSON.stringify([pathToFileURL(a).href]), { what: 'the grant to reach it' });
    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootId], false));
    await waitFor(async () => JSON.stringify((await told(client)).uris) === JSON.stringify([]), { what: 'the revoke to reach it' });
    // The file is written at most 4 times a second: it may first show the restart's 'connecting',
    // so the fact waited for is the whole of it (learned ask-once, restarted, connected again).
    const status = await waitFor(
      async () => (await listLiveProxies(configDir)).find((live) => live.rereadsRoots === false && live.restartCount >= 2 && live.state === 'ready'),
      { what: 'the status file to say it restarts to apply changes, connected again' },
    );
    expect(status).toMatchObject({ rereadsRoots: false, state: 'ready' });
    // And forecasts it for the app's matrix: the next grant restarts it (it has no folder left to revoke).
    expect(status.changeRestarts).toEqual({ grant: 'reask' });
  });
});
