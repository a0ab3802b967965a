// Applying an import: servers are added with no grants (default deny), enabled unless they cannot
// start as written, with the variables the person filled in and nothing else expanded.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyImport } from '../../../electron/import/apply-import.js';
import { importable, previewImport } from '../../../electron/import/preview-import.js';
import { RootsHost } from '../../../electron/host/roots-host.js';
import { removeTempDirs, tempDir } from '../../support/index.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/import');
const hosts: RootsHost[] = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
  removeTempDirs();
});

async function registryHost(configDir = tempDir('import-config-')): Promise<RootsHost> {
  const host = new RootsHost({ configDir, runServers: false, monitor: { sweepIntervalMs: 0 } });
  hosts.push(host);
  await host.start();
  return host;
}

describe('applyImport', () => {
  it('adds servers enabled with no grants; unresolved variables or host-disabled entries come in disabled', async () => {
    const host = await registryHost();
    await host.addRoots([tempDir('existing-root-')]);
    const preview = await previewImport(
      [
        { host: 'claude-desktop', path: path.join(fixtures, 'claude-desktop', 'claude_desktop_config.json'), scope: 'user' },
        { host: 'cursor', path: path.join(fixtures, 'cursor', '.cursor', 'mcp.json'), scope: 'user' },
      ],
      host.registrySnapshot,
    );
    const outcome = await applyImport(host, importable(preview).map((candidate) => ({ candidate })));
    expect(outcome.failed).toEqual([]);
    const added = Object.fromEntries(outcome.added.map((a) => [a.name, a]));
    expect(Object.keys(added)).toEqual(['filesystem', 'github', 'sqlite', 'brave-search', 'linear', 'context7', 'off']);
    expect(added.filesystem).toMatchObject({ enabled: true, unresolved: [] });
    expect(added['brave-search']).toMatchObject({ enabled: false, unresolved: ['${env:BRAVE_API_KEY}'] });
    expect(added.off).toMatchObject({ enabled: false });

    const registry = host.registrySnapshot;
    for (const server of registry.servers) {
      expect(registry.grants[server.id], `${server.name} has no grants`).toEqual({});
      expect(server.sharing).toBe(true);
    }
    // Stored verbatim: the variable is still there for the person to see and fill in.
    const brave = registry.servers.find((server) => server.name === 'brave-search');
    expect(brave?.transport).toMatchObject({ env: { BRAVE_API_KEY: '${env:BRAVE_API_KEY}' } });
  });

  it('fills in the values given, and only those', async () => {
    const host = await registryHost();
    const preview = await previewImport([{ host: 'vscode', path: path.join(fixtures, 'vscode', '.vscode', 'mcp.json'), scope: 'workspace' }], host.registrySnapshot);
    const github = preview.candidates.find((c) => c.originalName === 'github');
    const filesystem = preview.candidates.find((c) => c.originalName === 'filesystem');
    if (!github || !filesystem) throw new Error('fixture changed');
    const outcome = await applyImport(host, [
      { candidate: github, values: { '${input:github-token}': 'tok-123' } },
      { candidate: filesystem, name: 'workspace files', values: { '${workspaceFolder}': '/home/ada/shop' } },
    ]);
    expect(outcome.added.map((a) => [a.name, a.enabled])).toEqual([
      ['github', true],
      ['workspace files', true],
    ]);
    const servers = host.registrySnapshot.servers;
    expect(servers[0]?.transport).toEqual({ type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer tok-123' } });
    expect(servers[1]?.transport).toMatchObject({ args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ada/shop'] });
  });

  it('refuses proxied entries and name clashes one by one, adding the rest in one write', async () => {
    const configDir = tempDir('import-config-');
    const host = await registryHost(configDir);
    await host.addServer({ name: 'taken', transport: { type: 'stdio', command: 'x', args: [], env: {} }, enabled: false, sharing: true });
    const file = JSON.stringify({
      mcpServers: {
        mine: { command: 'mcp-roots', args: ['proxy', 'mine'] },
        fresh: { command: 'node', args: ['fresh.js'] },
        clash: { command: 'node', args: ['clash.js'] },
      },
    });
    const preview = await previewImport([{ host: 'cursor', path: '/virtual/mcp.json', scope: 'user' }], host.registrySnapshot, async () => file);
    const [mine, fresh, clash] = preview.candidates;
    if (!mine || !fresh || !clash) throw new Error('expected three candidates');
    const outcome = await applyImport(host, [{ candidate: mine }, { candidate: fresh }, { candidate: clash, name: 'taken' }]);
    expect(outcome.added.map((a) => a.name)).toEqual(['fresh']);
    expect(outcome.failed.map((f) => [f.name, f.code])).toEqual([
      ['mine', 'invalid-input'],
      ['taken', 'duplicate'],
    ]);
    // Persisted: a fresh look at the file sees the import.
    const reopened = await registryHost(configDir);
    expect(reopened.registrySnapshot.servers.map((s) => s.name)).toEqual(['taken', 'fresh']);
  });
});
