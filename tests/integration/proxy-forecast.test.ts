// The matrix's ↻ for a server that runs only behind `mcp-roots proxy` in another app: the proxy
// forecasts, by the same roots-change policy as its own rootsChanged, what a grant or revoke would
// do, writes it into its status file, and an app that does not run the server itself shows it.
// The forecast is then checked against what the change really does.
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { listLiveProxies, type ProxyStatus } from '../../electron/host/status/proxy-status.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { addRoot, editRegistry, startHost, stopHosts } from '../support/host-harness.js';
import { closeProxiedClients, proxiedClient, proxyStderr } from '../support/proxied-client.js';
import { allowedDirectories, FILESYSTEM_ENTRY, filesystemServer, removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const support = await probeSandbox();

afterEach(async () => {
  await closeProxiedClients();
  await stopHosts();
  removeTempDirs();
});

async function sees(client: Client): Promise<string[]> {
  return allowedDirectories(toolText(await client.callTool({ name: 'list_allowed_directories', arguments: {} })));
}

/** The proxy's status once `ready` holds (its writes trail the session by up to 250 ms). */
async function proxyStatus(configDir: string, client: Client, what: string, ready: (status: ProxyStatus) => boolean): Promise<ProxyStatus> {
  return waitFor(async () => (await listLiveProxies(configDir)).find((status) => status.state === 'ready' && ready(status)), {
    what,
    timeoutMs: 30_000,
    explain: () => `proxy stderr:\n${proxyStderr(client)}`,
  });
}

describe('a proxied server’s change forecast', () => {
  it('an argument-injected server: the status file forecasts a restart for a grant and a revoke, the app shows it, and a grant does restart it', async () => {
    const configDir = tempDir('forecast-config-');
    const [a, b] = [tempDir('forecast-a-'), tempDir('forecast-b-')];
    const injected: StdioTransportConfig = { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, '${roots}'], env: {} };
    const { serverId, rootB } = await editRegistry(configDir, async (editor) => {
      const [rootA, rootB] = [await addRoot(editor, a), await addRoot(editor, b)];
      const server = await editor.addServer({ name: 'fs-args', transport: injected, enabled: true, sharing: true });
      await editor.setGrants([server.id], [rootA], true);
      return { serverId: server.id, rootB };
    });
    const client = await proxiedClient(configDir, 'fs-args', { name: 'Claude Desktop (test)' });
    expect(await sees(client)).toEqual([a]);
    const before = await proxyStatus(configDir, client, 'the forecast in the status file', (status) => status.changeRestarts !== undefined);
    expect(before.changeRestarts).toEqual({ grant: 'arguments', revoke: 'arguments' });

    // The app runs none of its servers here: what its matrix says of this one comes from the proxy.
    const app = await startHost({ configDir, runServers: false });
    const view = await waitFor(() => app.getState().servers.find((server) => server.id === serverId && server.changeRestarts !== undefined), {
      what: 'the proxy’s forecast in the app state',
    });
    expect(view.changeRestarts).toEqual({ grant: 'arguments', revoke: 'arguments' });
    expect(app.getState().proxies.map((session) => session.changeRestarts)).toEqual([{ grant: 'arguments', revoke: 'arguments' }]);

    // As forecast: the grant restarts it with both folders as arguments.
    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootB], true));
    await waitFor(async () => JSON.stringify((await sees(client)).sort()) === JSON.stringify([a, b].sort()), { what: 'both folders after the restart', timeoutMs: 30_000 });
    const after = await proxyStatus(configDir, client, 'the restart in the status file', (status) => status.restartCount === before.restartCount + 1);
    expect(after.changeRestarts).toEqual({ grant: 'arguments', revoke: 'arguments' });
  });

  // Sandbox off: told by list_changed. On, where its grants change live (a file view): the view changed, then told.
  const liveCases = [{ sandbox: false, why: 'told by list_changed' }, ...(support.kind === 'bwrap' && support.view?.available === true ? [{ sandbox: true, why: 'its sandbox’s mounts changed live' }] : [])];
  for (const { sandbox, why } of liveCases) {
    it(`a server that takes changes live (${why}): the status file forecasts no restart, and a grant makes none`, async () => {
      const configDir = tempDir('forecast-config-');
      const [a, b, c] = [tempDir('forecast-a-'), tempDir('forecast-b-'), tempDir('forecast-c-')];
      const { serverId, rootC } = await editRegistry(configDir, async (editor) => {
        const [rootA, rootB, rootC] = [await addRoot(editor, a), await addRoot(editor, b), await addRoot(editor, c)];
        const server = await editor.addServer({ name: 'filesystem', transport: filesystemServer(), enabled: true, sharing: true, sandbox });
        await editor.setGrants([server.id], [rootA, rootB], true);
        return { serverId: server.id, rootC };
      });
      const client = await proxiedClient(configDir, 'filesystem');
      expect((await sees(client)).sort()).toEqual([a, b].sort());
      // Two folders: a grant is told (or mounted, then told), and a revoke leaves it one.
      // Written once the server asked for its folders (after the host's handshake: a change can be told
      // then) and, confined, once its sandbox was verified: the forecast of the running session.
      const before = await proxyStatus(
        configDir,
        client,
        'the forecast in the status file',
        (status) => status.changeRestarts !== undefined && status.rootsRequestCount > 0 && (!sandbox || status.confinement?.selfCheck?.verified === true),
      );
      expect(before.changeRestarts).toEqual({});

      await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootC], true));
      await waitFor(async () => (await sees(client)).length === 3, { what: 'the third folder, live', timeoutMs: 30_000 });
      const after = await proxyStatus(configDir, client, 'the list_changed in the status file', (status) => status.listChangedCount > before.listChangedCount);
      expect(after.restartCount).toBe(before.restartCount);
      expect(after.changeRestarts).toEqual({});
    });
  }
});
