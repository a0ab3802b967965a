// Paths as the server sees them (issue #12 item 6): a server with a path mapping is told the mapped
// URIs, through the app and through the proxy, and `${roots}` carries the mapped paths; the host
// path is what the sandbox mounts, so the server still reads the folder at its host path inside it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { addRoot, callText, startHost, stopHosts } from '../support/host-harness.js';
import { closeProxiedClients, proxiedClient } from '../support/proxied-client.js';
import { removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const echo = (...args: string[]): StdioTransportConfig => ({
  type: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures/roots-echo-server.mjs'), 'follows', ...args],
  env: {},
});

afterEach(async () => {
  await closeProxiedClients();
  await stopHosts();
  removeTempDirs();
});

describe('a server with a path mapping', () => {
  it('is told the mapped URIs through the app and the proxy, and ${roots} carries the mapped paths', async () => {
    const host = await startHost();
    const parent = tempDir('mapped-');
    const project = path.join(parent, 'proj');
    const notes = tempDir('unmapped-');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'hello.txt'), 'hi from the host path');
    const [projectId, notesId] = [await addRoot(host, project), await addRoot(host, notes)];
    const pathMap = [
      { hostPath: parent, serverPath: '/workspace' },
      { hostPath: project, serverPath: '/projects/proj' },
    ];
    const told = await host.addServer({ name: 'told', transport: echo(), enabled: true, sharing: true, pathMap });
    const argued = await host.addServer({ name: 'argued', transport: echo('${roots}'), enabled: true, sharing: true, pathMap });
    await host.setGrants([told.id, argued.id], [projectId, notesId], true);
    const notesUri = host.getState().roots.find((root) => root.id === notesId)?.uri;

    // Through the app: the longest mapping wins; an unmapped folder keeps its host URI.
    const expected = ['file:///projects/proj', notesUri];
    await waitFor(async () => {
      const state = host.getState().servers.find((server) => server.id === told.id)?.status.state;
      if (state !== 'connected') return false;
      return JSON.stringify(JSON.parse(await callText(host, told.id, 'last-roots')).uris) === JSON.stringify(expected);
    }, { what: 'the mapped roots through the app', timeoutMs: 60_000 });
    // The sandbox mounts the host path: the folder is readable there, whatever the server is told.
    expect(host.getState().servers.find((server) => server.id === told.id)?.status.confinement?.state).toBe('enforced');
    expect(await callText(host, told.id, 'read-file', { path: path.join(project, 'hello.txt') })).toBe('hi from the host path');

    await waitFor(() => host.getState().servers.find((server) => server.id === argued.id)?.status.state === 'connected', { what: 'the ${roots} server' });
    expect(JSON.parse(await callText(host, argued.id, 'argv'))).toEqual(['/projects/proj', fs.realpathSync(notes)]);

    // Through the proxy: the same answer.
    const client = await proxiedClient(host.store.configDir, 'told');
    await waitFor(async () => {
      const result = await client.callTool({ name: 'last-roots', arguments: {} });
      return JSON.stringify(JSON.parse(toolText(result)).uris) === JSON.stringify(expected);
    }, { what: 'the mapped roots through the proxy', timeoutMs: 60_000 });
  }, 180_000);
});
