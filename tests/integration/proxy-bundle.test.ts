// The proxy as hosts run it: `node bin/mcp-roots.js proxy SERVER`, the built CLI loading the proxy
// from its one-file bundle (vite.proxy.config.ts). The other proxy tests run the sources; these
// check that the bundle is the proxy they test: a real server gets its grants and then a CLI grant
// live, a 2026-07-28 server is bridged (the era bridge is in the bundle too), and an HTTP server is
// reached (its transport is a chunk of the bundle loaded only for such a server).
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadRunProxy, PROXY_BUNDLE } from '../../electron/cli/proxy-entry.js';
import type { TransportConfig } from '../../shared/domain.js';
import { ensureBuilt, repoRoot, runCli } from '../support/cli.js';
import { addRoot, editRegistry } from '../support/host-harness.js';
import { startModernHttpServer, stopHttpServers } from '../support/http-fixture.js';
import { allowedDirectories, filesystemServer, modernFixtureServer, removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';
import { closeProxiedClients, proxiedClient } from '../support/proxied-client.js';

beforeAll(() => ensureBuilt(), 600_000);
afterEach(async () => {
  await closeProxiedClients();
  stopHttpServers();
  removeTempDirs();
});

async function registryWith(name: string, transport: TransportConfig, granted: string[]): Promise<string> {
  const configDir = tempDir('bundle-config-');
  await editRegistry(configDir, async (host) => {
    const ids = await Promise.all(granted.map((folder) => addRoot(host, folder)));
    const server = await host.addServer({ name, transport, enabled: true, sharing: true });
    await host.setGrants([server.id], ids, true);
  });
  return configDir;
}

describe('the built proxy (dist/proxy-bundle)', () => {
  it('is what the built CLI loads; the sources load the modules', async () => {
    const built = path.join(repoRoot, 'dist/electron/cli/proxy-entry.js');
    const { loadRunProxy: builtLoad } = (await import(pathToFileURL(built).href)) as typeof import('../../electron/cli/proxy-entry.js');
    // The bundle, compiled in a context of its own (cached-bundle.ts): its runProxy, not the sources'.
    const sources = await import('../../electron/proxy/run-proxy.js');
    const built1 = await builtLoad();
    expect(typeof built1.runProxy).toBe('function');
    expect(built1.runProxy).not.toBe(sources.runProxy);
    expect(await loadRunProxy()).toBe(sources);
    // A "built" caller without a bundle next to it: a broken build, said as such.
    expect(PROXY_BUNDLE.pathname).not.toContain('/dist/');
    await expect(loadRunProxy('file:///somewhere/main.js')).rejects.toThrow(/bundle is missing .*npm run build:node/);
  });

  it('serves a real server its grants, and a CLI grant in another process reaches it live', async () => {
    const [a, b] = [tempDir('bundle-a-'), tempDir('bundle-b-')];
    const configDir = await registryWith('filesystem', filesystemServer(), [a]);
    const client = await proxiedClient(configDir, 'filesystem', { entry: 'built', era: 'legacy' });
    const sees = async () => allowedDirectories(toolText(await client.callTool({ name: 'list_allowed_directories', arguments: {} }))).sort();
    await waitFor(async () => JSON.stringify(await sees()) === JSON.stringify([a]), { what: 'the granted folder through the bundled proxy' });
    expect((await runCli(['--config-dir', configDir, 'roots', 'add', b])).code).toBe(0);
    expect((await runCli(['--config-dir', configDir, 'grant', 'filesystem', b])).code).toBe(0);
    await waitFor(async () => JSON.stringify(await sees()) === JSON.stringify([a, b].sort()), { what: 'the CLI grant through the bundled proxy' });
  });

  it('bridges a 2026-07-28 server: the roots part of input_required is answered from the registry', async () => {
    const folder = tempDir('bundle-modern-');
    const configDir = await registryWith('modern', modernFixtureServer({ modernOnly: true }), [folder]);
    const client = await proxiedClient(configDir, 'modern', { entry: 'built' });
    expect(client.getProtocolEra()).toBe('modern');
    const roots = JSON.parse(toolText(await client.callTool({ name: 'list-roots', arguments: {} }))) as { uri: string }[];
    expect(roots.map((root) => root.uri)).toEqual([pathToFileURL(folder).href]);
  });

  it('reaches an HTTP server through the HTTP transport it loads only then', async () => {
    const url = await startModernHttpServer();
    const folder = tempDir('bundle-http-');
    const configDir = await registryWith('modern-http', { type: 'http', url, headers: {} }, [folder]);
    const client = await proxiedClient(configDir, 'modern-http', { entry: 'built', era: 'legacy' });
    expect(client.getServerVersion()?.name).toBe('modern-http-fixture');
    const roots = JSON.parse(toolText(await client.callTool({ name: 'list-roots', arguments: {} }))) as { uri: string }[];
    expect(roots.map((root) => root.uri)).toEqual([pathToFileURL(folder).href]);
  });
});
