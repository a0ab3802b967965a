// The app shows servers running through `mcp-roots proxy` (launched by another host) beside its own.
import { Client } from '@modelcontextprotocol/client';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import { addRoot, startHost, stopHosts } from '../support/host-harness.js';
import { filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('proxied sessions in the host state', () => {
  it('lists a running proxy with its host and last roots answer, and drops it when it ends', async () => {
    const app = await startHost();
    const folder = tempDir('proxied-');
    const rootId = await addRoot(app, folder);
    const server = await app.addServer({ name: 'fs', transport: filesystemServer(), enabled: true, sharing: true });
    await app.setGrants([server.id], [rootId], true);

    const client = new Client({ name: 'Claude Desktop (test)', version: '9.9' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 15_000 } } });
    await client.connect(
      new InPlaceStdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', path.join(repoRoot, 'electron/proxy/proxy-main.ts'), '--config-dir', app.store.configDir, 'fs'],
        cwd: repoRoot,
        stderr: 'pipe',
      }),
    );
    try {
      const session = await waitFor(
        () => app.getState().proxies.find((proxy) => proxy.serverId === server.id && (proxy.lastRootsRequest?.uris.length ?? 0) > 0),
        { what: 'the proxy in the app state', timeoutMs: 15_000 },
      );
      expect(session.host?.name).toBe('Claude Desktop (test)');
      expect(session.rootsPolicy).toBe('registry');
      expect(session.lastRootsRequest?.uris).toEqual([app.getState().roots[0]?.uri]);
    } finally {
      await client.close();
    }
    await waitFor(() => app.getState().proxies.length === 0, { what: 'the proxy to drop out', timeoutMs: 10_000 });
  });
});
