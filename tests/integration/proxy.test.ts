// `mcp-roots proxy`: a host WITHOUT roots talks to a real server through the proxy, and the server
// sees exactly what the registry grants it, live, whoever edits the registry.
import { Client } from '@modelcontextprotocol/client';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../electron/host/registry/process-alive.js';
import { listLiveProxies } from '../../electron/host/status/proxy-status.js';
import { InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import { useWith } from '../../electron/import/use-with.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { addRoot, editRegistry } from '../support/host-harness.js';
import { closeProxiedClients, PROXY_ENTRY, proxiedClient } from '../support/proxied-client.js';
import {
  allowedDirectories,
  FILESYSTEM_ENTRY,
  filesystemServer,
  modernFixtureServer,
  removeTempDirs,
  tempDir,
  toolText,
  waitFor,
} from '../support/index.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const open: Client[] = [];

afterEach(async () => {
  await closeProxiedClients();
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => undefined)));
  removeTempDirs();
});

function cli(configDir: string, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'electron/cli/main.ts'), '--config-dir', configDir, ...args], {
    cwd: repoRoot,
  });
}

async function addServer(configDir: string, name: string, transport: StdioTransportConfig, rootIds: string[] = []): Promise<string> {
  return editRegistry(configDir, async (host) => {
    const server = await host.addServer({ name, transport, enabled: true, sharing: true });
    if (rootIds.length > 0) await host.setGrants([server.id], rootIds, true);
    return server.id;
  });
}

async function addRoots(configDir: string, ...folders: string[]): Promise<string[]> {
  return editRegistry(configDir, async (host) => Promise.all(folders.map((folder) => addRoot(host, folder))));
}

async function sees(client: Client): Promise<string[]> {
  return allowedDirectories(toolText(await client.callTool({ name: 'list_allowed_directories', arguments: {} })));
}

async function seesExactly(client: Client, expected: string[], what: string): Promise<number> {
  const started = Date.now();
  await waitFor(async () => JSON.stringify((await sees(client)).sort()) === JSON.stringify([...expected].sort()), {
    what,
    intervalMs: 10,
  });
  return Date.now() - started;
}

describe('mcp-roots proxy', () => {
  it('shows a host without roots exactly the granted folders; CLI grant/revoke in another process reach it', async () => {
    const configDir = tempDir('proxy-config-');
    const [a, b, never] = [tempDir('granted-a-'), tempDir('granted-b-'), tempDir('never-granted-')];
    const [rootA] = await addRoots(configDir, a, b, never);
    await addServer(configDir, 'filesystem', filesystemServer(), [rootA as string]);

    const client = await proxiedClient(configDir, 'filesystem');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    await seesExactly(client, [a], 'the initial grant');

    await cli(configDir, 'grant', 'filesystem', b);
    // The CLI process has exited: only the proxy's own watch of the registry can react now.
    // (How fast: `npm run bench`, section 9.)
    await seesExactly(client, [a, b], 'the CLI grant');

    await cli(configDir, 'revoke', 'filesystem', a);
    await seesExactly(client, [b], 'the CLI revoke');

    // The status file trails the session by at most a few hundred ms (writes are throttled).
    const [status] = await waitFor(async () => {
      const live = await listLiveProxies(configDir);
      return live[0]?.lastRootsRequest?.uris.length === 1 ? live : undefined;
    });
    expect(status).toMatchObject({
      serverName: 'filesystem',
      state: 'ready',
      rootsPolicy: 'registry',
      hostOffersRoots: false,
      era: 'legacy',
      host: { name: 'test-host', version: '1.0.0' },
      serverInfo: { name: 'secure-filesystem-server' },
    });
    expect(status?.rootsRequestCount).toBeGreaterThanOrEqual(3);
    // Each change reached the server. Where its holder mounts grants live, the read-write grant (its
    // protected paths built in with it) and the revoke are each a list_changed after the mount
    // changed, with no restart; in a sandbox whose mounts are fixed at exec, each is a restart;
    // unconfined, each is a list_changed.
    const live = status?.confinement?.selfCheck?.detail?.includes('grants applied live') === true;
    if (live) {
      expect(status?.restartCount).toBe(0);
      expect(status?.listChangedCount).toBeGreaterThanOrEqual(2);
    } else if (status?.confinement?.state === 'enforced') expect(status.restartCount).toBeGreaterThanOrEqual(2);
    else expect(status?.listChangedCount).toBeGreaterThanOrEqual(2);
    expect(status?.lastRootsRequest?.uris).toEqual([pathToFileURL(b).href]);
  });

  it('holds the host’s calls after each (re)start until the server has had its folders: none sees an empty list', async () => {
    const configDir = tempDir('proxy-config-');
    const [a, b] = [tempDir('first-a-'), tempDir('first-b-')];
    const [rootA, rootB] = await addRoots(configDir, a, b);
    const serverId = await addServer(configDir, 'filesystem', filesystemServer(), [rootA as string]);
    const client = await proxiedClient(configDir, 'filesystem', { era: 'legacy' });
    // The host's first call goes out right after its handshake, as hosts do.
    expect(await sees(client)).toEqual([a]);

    // A grant and a revoke each restart it (sandboxed: new mounts; otherwise: the last folder forgotten).
    // Calls made meanwhile are held by the proxy: each answer is the old folders, the new ones, or an
    // error naming the restart; never the empty list a server has before it asked for its folders.
    const answers: string[] = [];
    const callUntil = async (expected: string[]) => {
      await waitFor(async () => {
        const seen = await sees(client).then((dirs) => JSON.stringify(dirs.sort()), (error: Error) => `error: ${error.message}`);
        answers.push(seen);
        return seen === JSON.stringify([...expected].sort());
      }, { what: `the folders ${expected.join(', ')}`, intervalMs: 1 });
    };
    await editRegistry(configDir, (host) => host.setGrants([serverId], [rootB as string], true));
    await callUntil([a, b]);
    await editRegistry(configDir, (host) => host.setGrants([serverId], [rootA as string, rootB as string], false));
    await editRegistry(configDir, (host) => host.setGrants([serverId], [rootA as string], true));
    await callUntil([a]);
    expect(answers.filter((answer) => answer === '[]')).toEqual([]);
  });

  it('takes the last folder away by restarting the server behind the host, and the session goes on', async () => {
    const configDir = tempDir('proxy-config-');
    const a = tempDir('only-');
    const [rootA] = await addRoots(configDir, a);
    await addServer(configDir, 'filesystem', filesystemServer(), [rootA as string]);
    const client = await proxiedClient(configDir, 'filesystem');
    await seesExactly(client, [a], 'the grant');

    // server-filesystem keeps its folders when told the list is empty: a plain list_changed is not enough.
    await cli(configDir, 'revoke', 'filesystem', a);
    await seesExactly(client, [], 'nothing after the last revoke');
    await waitFor(async () => (await listLiveProxies(configDir))[0]?.restartCount === 1, { what: 'one restart' });

    // The restarted server got the host's handshake again: list_changed and tools keep working.
    await cli(configDir, 'grant', 'filesystem', a);
    await seesExactly(client, [a], 'the grant after the restart');

    // Removing the server from the registry takes its folders away too.
    await cli(configDir, 'servers', 'remove', 'filesystem');
    await seesExactly(client, [], 'nothing once the server is removed');
  });

  it('default deny: a server with no grant is told []', async () => {
    const configDir = tempDir('proxy-config-');
    await addRoots(configDir, tempDir('somebody-elses-'));
    await addServer(configDir, 'filesystem', filesystemServer());
    const client = await proxiedClient(configDir, 'filesystem');
    await waitFor(async () => (await listLiveProxies(configDir))[0]?.rootsRequestCount === 1, { what: 'the roots request' });
    expect(await sees(client)).toEqual([]);
    expect((await listLiveProxies(configDir))[0]?.lastRootsRequest?.uris).toEqual([]);
  });

  it("registry policy: a host's own roots are neither passed on nor asked for", async () => {
    const configDir = tempDir('proxy-config-');
    const [granted, hostsOwn] = [tempDir('granted-'), tempDir('hosts-own-')];
    const [rootId] = await addRoots(configDir, granted);
    await addServer(configDir, 'filesystem', filesystemServer(), [rootId as string]);
    let hostAsked = 0;
    const client = await proxiedClient(configDir, 'filesystem', {
      capabilities: { roots: { listChanged: true } },
      roots: [hostsOwn],
      onRootsAsked: () => hostAsked++,
    });
    await seesExactly(client, [granted], 'the registry grant');
    await client.sendRootsListChanged();
    // A tool call sent after the notification passes the proxy after it: the server has had it by then.
    expect(await sees(client)).toEqual([granted]);
    expect(hostAsked).toBe(0);
    // The status file trails the session (its writes are throttled): wait for it to show the host's offer.
    const [status] = await waitFor(async () => {
      const live = await listLiveProxies(configDir);
      return live[0]?.hostOffersRoots ? live : undefined;
    }, { what: 'the status file to show the host offers roots' });
    expect(status).toMatchObject({ rootsPolicy: 'registry', hostOffersRoots: true });
  });

  it('serves a 2026-07-28 server: the roots part of input_required is answered from the registry', async () => {
    const configDir = tempDir('proxy-config-');
    const [a, b] = [tempDir('modern-a-'), tempDir('modern-b-')];
    const [rootA, rootB] = await addRoots(configDir, a, b);
    // 2026-07-28 only: a server that also speaks 2025-11-25 gets that era behind the proxy (proxy-eras.test.ts).
    const serverId = await addServer(configDir, 'modern', modernFixtureServer({ modernOnly: true }), [rootA as string]);
    const client = await proxiedClient(configDir, 'modern');
    expect(client.getProtocolEra()).toBe('modern');
    const listRoots = async () => JSON.parse(toolText(await client.callTool({ name: 'list-roots', arguments: {} }))) as { uri: string }[];
    expect((await listRoots()).map((root) => root.uri)).toEqual([pathToFileURL(a).href]);

    await editRegistry(configDir, (host) => host.setGrants([serverId], [rootB as string], true));
    await waitFor(async () => (await listRoots()).length === 2, { what: 'the new grant on the next call' });
    // The status file trails the session (its writes are throttled): wait for it to say modern.
    const [status] = await waitFor(async () => {
      const live = await listLiveProxies(configDir);
      return live[0]?.era === 'modern' && live[0].rootsRequestCount >= 2 ? live : undefined;
    }, { what: 'the status file to show the modern session' });
    expect(status).toMatchObject({ era: 'modern', eraReason: 'modern-only', listChangedCount: 0 });
  });

  it('restarts an argument-injected server with the granted folders as arguments', async () => {
    const configDir = tempDir('proxy-config-');
    const [a, b] = [tempDir('args-a-'), tempDir('args-b-')];
    const [rootA, rootB] = await addRoots(configDir, a, b);
    const injected: StdioTransportConfig = { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, '${roots}'], env: {} };
    const serverId = await addServer(configDir, 'fs-args', injected, [rootA as string]);
    const client = await proxiedClient(configDir, 'fs-args');
    await seesExactly(client, [a], 'the folder passed as an argument');
    await editRegistry(configDir, (host) => host.setGrants([serverId], [rootB as string], true));
    await seesExactly(client, [a, b], 'both folders after the restart');
    expect((await listLiveProxies(configDir))[0]?.rootsRequestCount).toBe(0);
  });

  it('ends with the host: closing stdin stops the real server and removes the status file', async () => {
    const configDir = tempDir('proxy-config-');
    await addServer(configDir, 'filesystem', filesystemServer());
    const client = await proxiedClient(configDir, 'filesystem');
    const [status] = await waitFor(async () => {
      const live = await listLiveProxies(configDir);
      return live[0]?.serverPid ? live : undefined;
    });
    const serverPid = status?.serverPid as number;
    expect(isProcessAlive(serverPid)).toBe(true);
    await client.close();
    await waitFor(() => !isProcessAlive(serverPid), { what: 'the real server to exit' });
    await waitFor(async () => (await listLiveProxies(configDir)).length === 0, { what: 'the status file to go' });
  });

  it('use with Claude Desktop: the entry written into its config starts the proxy, and it works', async () => {
    const configDir = tempDir('proxy-config-');
    const folder = tempDir('granted-');
    const [rootId] = await addRoots(configDir, folder);
    await addServer(configDir, 'filesystem', filesystemServer(), [rootId as string]);
    const claudeConfig = path.join(tempDir('claude-'), 'claude_desktop_config.json');
    fs.writeFileSync(claudeConfig, JSON.stringify({ mcpServers: { filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'] } } }));
    // The test runs from source: node --import tsx proxy-main.ts stands in for node bin/mcp-roots.js.
    const launcher = { kind: 'node' as const, node: process.execPath, nodeArgs: ['--import', 'tsx'], script: PROXY_ENTRY };
    const [record] = await editRegistry(configDir, async (editor) => editor.registry.servers);
    await useWith('claude-desktop', claudeConfig, [record as NonNullable<typeof record>], { launcher, configDir });

    const entry = (JSON.parse(fs.readFileSync(claudeConfig, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers.filesystem;
    if (!entry) throw new Error('no entry written');
    // Launched the way Claude Desktop launches it: command and args from the file, nothing else.
    const transport = new InPlaceStdioClientTransport({ command: entry.command, args: entry.args, cwd: repoRoot, stderr: 'pipe' });
    const client = new Client({ name: 'claude-ai', version: '0.1.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: 3000 } } });
    await client.connect(transport);
    open.push(client);
    await seesExactly(client, [folder], 'the granted folder through the written entry');
  });

  it('refuses an unknown server with a clear message and exit code 1', async () => {
    const configDir = tempDir('proxy-config-');
    await expect(
      run(process.execPath, ['--import', 'tsx', PROXY_ENTRY, '--config-dir', configDir, 'nobody'], { cwd: repoRoot }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No server matches "nobody"') });
  });
});
