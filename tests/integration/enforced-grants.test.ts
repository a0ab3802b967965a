// Grants that bind, end to end: servers the app starts and servers behind `mcp-roots proxy` run in
// the OS sandbox, holding exactly their effective roots, and every live grant or revoke changes what
// the OS lets them reach. The server used ignores roots and tries whatever path it is asked.
import { Client } from '@modelcontextprotocol/client';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { listLiveProxies } from '../../electron/host/status/proxy-status.js';
import { anyPathServer } from '../support/confined-client.js';
import { addConnectedServer, addCountedServer, addRoot, callText, editRegistry, startHost, stopHosts } from '../support/host-harness.js';
import { closeProxiedClients, proxiedClient, proxyStderr } from '../support/proxied-client.js';
import { FILESYSTEM_ENTRY, removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const support = await probeSandbox();
const clients: Client[] = [];

afterEach(async () => {
  await closeProxiedClients();
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await stopHosts();
  removeTempDirs();
});

function folderWith(name: string, content: string): { dir: string; file: string } {
  const dir = tempDir(`enforced-${name}-`);
  const file = path.join(dir, `${name}.txt`);
  fs.writeFileSync(file, content);
  return { dir, file };
}

describe.runIf(support.kind === 'bwrap')('enforced grants through the app', () => {
  it('reaches exactly its grants, read-only where granted so, and follows live grants and revokes', async () => {
    const host = await startHost();
    const [a, b, c] = [folderWith('a', 'in a'), folderWith('b', 'in b'), folderWith('c', 'in c')];
    const [rootA, rootB, rootC] = [await addRoot(host, a.dir), await addRoot(host, b.dir), await addRoot(host, c.dir)];
    const server = await addConnectedServer(host, 'any-path', anyPathServer());
    await host.setGrants([server], [rootA], true, 'read-write');
    await host.setGrants([server], [rootB], true, 'read-only');
    const call = (tool: string, args: Record<string, unknown>) => callText(host, server, tool, args);
    await waitFor(async () => (await call('read', { path: a.file })) === 'in a', { what: 'folder A after the grant' });

    const status = () => host.getState().servers.find((view) => view.id === server)?.status;
    expect(status()?.confinement).toMatchObject({ state: 'enforced', kind: 'bwrap', selfCheck: { verified: true } });
    expect(await call('write', { path: path.join(a.dir, 'new.txt'), content: 'made' })).toBe('written');
    expect(await call('read', { path: b.file })).toBe('in b');
    expect(await call('write', { path: b.file, content: 'changed' })).toMatch(/^ERROR EROFS/);
    expect(fs.readFileSync(b.file, 'utf8')).toBe('in b');
    expect(await call('read', { path: c.file })).toMatch(/^ERROR ENOENT/);
    expect(await call('read', { path: host.store.path })).toMatch(/^ERROR ENOENT/);

    // A live grant opens C; a live revoke closes A; a mode change makes B writable.
    await host.setGrants([server], [rootC], true, 'read-write');
    await waitFor(async () => (await call('read', { path: c.file })) === 'in c', { what: 'folder C after the live grant' });
    await host.setGrants([server], [rootA], false);
    await waitFor(async () => /^ERROR ENOENT/.test(await call('read', { path: a.file })), { what: 'folder A gone after the revoke' });
    await host.setGrants([server], [rootB], true, 'read-write');
    await waitFor(async () => (await call('write', { path: b.file, content: 'now writable' })) === 'written', { what: 'B writable' });
    expect(status()?.confinement?.selfCheck?.verified).toBe(true);
  });

  it('confines two servers differently at the same time', async () => {
    const host = await startHost();
    const [a, b] = [folderWith('a', 'only for one'), folderWith('b', 'only for two')];
    const [rootA, rootB] = [await addRoot(host, a.dir), await addRoot(host, b.dir)];
    const one = await addConnectedServer(host, 'one', anyPathServer());
    const two = await addConnectedServer(host, 'two', anyPathServer());
    await host.setGrants([one], [rootA], true, 'read-write');
    await host.setGrants([two], [rootB], true, 'read-write');
    await waitFor(async () => (await callText(host, one, 'read', { path: a.file })) === 'only for one', { what: 'one sees A' });
    await waitFor(async () => (await callText(host, two, 'read', { path: b.file })) === 'only for two', { what: 'two sees B' });
    expect(await callText(host, one, 'read', { path: b.file })).toMatch(/^ERROR ENOENT/);
    expect(await callText(host, two, 'read', { path: a.file })).toMatch(/^ERROR ENOENT/);
  });

  it('runs an npx-launched server confined, its package prepared outside the sandbox', async () => {
    const host = await startHost();
    const folder = folderWith('npx', 'hello');
    const rootId = await addRoot(host, folder.dir);
    const npx: StdioTransportConfig = { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'], env: {}, cwd: repoRoot };
    const server = await addConnectedServer(host, 'npx-filesystem', npx);
    await host.setGrants([server], [rootId], true, 'read-write');
    await waitFor(async () => (await callText(host, server, 'list_allowed_directories')).includes(folder.dir), { what: 'the granted folder' });
    expect(host.getState().servers.find((view) => view.id === server)?.status.confinement).toMatchObject({ state: 'enforced', selfCheck: { verified: true } });
    expect(await callText(host, server, 'read_text_file', { path: folder.file })).toBe('hello');
  });

  it('a server whose sandbox is off runs unconfined and says so', async () => {
    const host = await startHost();
    const outside = folderWith('outside', 'readable without sandbox');
    const server = await host.addServer({ name: 'unconfined', transport: anyPathServer(), enabled: true, sharing: true, sandbox: false });
    await waitFor(() => host.getState().servers.find((view) => view.id === server.id)?.status.state === 'connected', { what: 'connected' });
    expect(host.getState().servers.find((view) => view.id === server.id)?.status.confinement).toMatchObject({ state: 'off' });
    expect(await callText(host, server.id, 'read', { path: outside.file })).toBe('readable without sandbox');
  });

  it('starts a server that failed on a folder outside its grants as soon as another process grants it, not after its backoff', async () => {
    // The next retry is ten minutes away: only the grant itself can bring the server up in time.
    const host = await startHost({ connection: { reconnectDelaysMs: [600_000] } });
    const project = folderWith('project', 'needed');
    const server = await host.addServer({
      name: 'fs-args',
      transport: { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, project.dir], env: {} },
      enabled: true,
      sharing: true,
    });
    const view = () => host.getState().servers.find((entry) => entry.id === server.id);
    await waitFor(() => view()?.status.confinement?.blocked?.folder === project.dir && view()?.status.held?.reason === 'blocked-path', {
      what: 'the server to fail on the folder it was not granted, and wait for a change',
      timeoutMs: 30_000,
    });

    await editRegistry(host.configDir, async (editor) => {
      const { added } = await editor.addRoots([project.dir]);
      await editor.setGrants([server.id], [added[0]?.id as string], true);
    });
    await waitFor(() => view()?.status.state === 'connected', { what: 'the server to start with its new grant', timeoutMs: 30_000 });
    expect(await callText(host, server.id, 'read_text_file', { path: project.file })).toBe('needed');
    expect(host.getState().servers.find((entry) => entry.id === server.id)?.status.confinement).toMatchObject({ state: 'enforced' });
  });

  it('holds a server the sandbox blocked instead of retrying it on a timer, says so, and tries again on Reconnect and on a grant', async () => {
    // Retries 50 ms apart: a blocked server still retried on a timer is never seen held with one start.
    const host = await startHost({ connection: { reconnectDelaysMs: [50] } });
    const project = folderWith('held', 'needed');
    const server = await addCountedServer(host, 'fs-held', { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, project.dir], env: {} });
    const status = () => host.getState().servers.find((entry) => entry.id === server.id)?.status;
    const starts = () => (fs.existsSync(server.countFile) ? fs.readFileSync(server.countFile, 'utf8').trim().split('\n').length : 0);
    const log = () => JSON.stringify(host.activity(server.id));
    const held = await waitFor(() => status()?.held, { what: 'the blocked server to be held', timeoutMs: 30_000, explain: log });
    expect(held.reason).toBe('blocked-path');
    expect(status()).toMatchObject({ state: 'error', nextRetryAt: undefined, confinement: { blocked: { folder: project.dir } } });
    expect(starts()).toBe(1);
    const said = () => host.activity(server.id).filter((entry) => entry.code === 'held-blocked-path').length;
    expect(said()).toBe(1);

    // Reconnect is the person saying "try again": one more start, held again.
    await host.reconnect(server.id);
    await waitFor(() => said() === 2 && status()?.held !== undefined, { what: 'held again after Reconnect', timeoutMs: 30_000 });
    expect(starts()).toBe(2);

    const rootId = await addRoot(host, project.dir);
    await host.setGrants([server.id], [rootId], true, 'read-write');
    await waitFor(() => status()?.state === 'connected', { what: 'the server to start once granted', timeoutMs: 30_000 });
    expect(status()?.held).toBeUndefined();
    expect(await callText(host, server.id, 'read_text_file', { path: project.file })).toBe('needed');
  });
});

describe('where bubblewrap is missing', () => {
  it('the server runs advisory with the reason, and everything else works', async () => {
    const noBwrap = await probeSandbox({ platform: 'linux', pathEnv: tempDir('empty-path-') });
    expect(noBwrap).toMatchObject({ kind: 'none', reasonCode: 'bwrap-missing' });
    const host = await startHost({ connection: { sandboxSupport: noBwrap } });
    const folder = folderWith('advisory', 'told, not enforced');
    const rootId = await addRoot(host, folder.dir);
    const server = await addConnectedServer(host, 'advisory', anyPathServer());
    await host.setGrants([server], [rootId], true, 'read-write');
    await waitFor(async () => (await callText(host, server, 'read', { path: folder.file })) === 'told, not enforced', { what: 'the folder' });
    expect(host.getState().servers.find((view) => view.id === server)?.status.confinement).toMatchObject({ state: 'advisory', reasonCode: 'bwrap-missing' });
  });
});

describe.runIf(support.kind === 'bwrap')('enforced grants through mcp-roots proxy', () => {
  it('a host without roots gets a server that reaches exactly the registry’s grants, live', async () => {
    const configDir = tempDir('enforced-proxy-');
    const [a, b] = [folderWith('a', 'granted'), folderWith('b', 'later')];
    const { rootA, rootB, serverId } = await editRegistry(configDir, async (editor) => {
      const { added } = await editor.addRoots([a.dir, b.dir]);
      const server = await editor.addServer({ name: 'any-path', transport: anyPathServer(), enabled: true, sharing: true });
      await editor.setGrants([server.id], [added[0]?.id as string], true);
      return { rootA: added[0]?.id as string, rootB: added[1]?.id as string, serverId: server.id };
    });
    const transport = new InPlaceStdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(repoRoot, 'electron/proxy/proxy-main.ts'), '--config-dir', configDir, 'any-path'],
      cwd: repoRoot,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'rootless-host', version: '1.0.0' }, { capabilities: {} });
    clients.push(client);
    await client.connect(transport);
    const call = async (tool: string, args: Record<string, unknown>) => toolText(await client.callTool({ name: tool, arguments: args }));
    // A call may meet a restart (new mounts): the proxy answers it with an error, the next one works.
    const settled = (tool: string, args: Record<string, unknown>, expected: RegExp) =>
      waitFor(async () => expected.test(await call(tool, args)), { what: `${tool} ${JSON.stringify(args)} -> ${expected}` });

    expect(await call('read', { path: a.file })).toBe('granted');
    expect(await call('read', { path: b.file })).toMatch(/^ERROR ENOENT/);
    expect(await call('read', { path: path.join(configDir, 'config.json') })).toMatch(/^ERROR ENOENT/);

    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootB], true, 'read-only'));
    await settled('read', { path: b.file }, /^later$/);
    expect(await call('write', { path: b.file, content: 'x' })).toMatch(/^ERROR EROFS/);
    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootA], false));
    await settled('read', { path: a.file }, /^ERROR ENOENT/);
  });

  it('says on stderr that an npx server’s package is being prepared before it starts, and its status drops the note once it runs', async () => {
    const packDir = tempDir('proxy-pack-');
    await promisify(execFile)('npm', ['pack', '--pack-destination', packDir, path.join(repoRoot, 'tests/fixtures/npx-package')], { cwd: packDir });
    const tarball = fs.readdirSync(packDir).find((name) => name.endsWith('.tgz')) as string;
    const configDir = tempDir('enforced-proxy-');
    await editRegistry(configDir, (editor) =>
      editor.addServer({ name: 'npx-fixture', transport: { type: 'stdio', command: 'npx', args: ['-y', `./${tarball}`], env: {}, cwd: packDir }, enabled: true, sharing: true }),
    );
    const client = await proxiedClient(configDir, 'npx-fixture', { era: 'legacy' });
    await waitFor(() => proxyStderr(client).includes(`preparing its package (npx -y ./${tarball})`), { what: 'the preparation said on stderr', explain: () => proxyStderr(client) });
    await waitFor(async () => {
      const [live] = await listLiveProxies(configDir);
      return live?.serverPid !== undefined && live.preparing === undefined;
    }, { what: 'the status without the note once the server runs' });
  });

  it('shows in the app that an npx server’s package is being installed, with its command, until it runs', async () => {
    const packDir = tempDir('app-pack-');
    await promisify(execFile)('npm', ['pack', '--pack-destination', packDir, path.join(repoRoot, 'tests/fixtures/npx-package')], { cwd: packDir });
    const tarball = fs.readdirSync(packDir).find((name) => name.endsWith('.tgz')) as string;
    const host = await startHost();
    // Every status the app sent its windows: the note is a state of its own, not a guess at timing.
    const seen: unknown[] = [];
    host.on('state', (state) => seen.push(...state.servers.map((server) => server.status.preparing).filter(Boolean)));
    const server = await host.addServer({ name: 'npx-fixture', transport: { type: 'stdio', command: 'npx', args: ['-y', `./${tarball}`], env: {}, cwd: packDir }, enabled: true, sharing: true });
    await waitFor(() => host.getState().servers.find((view) => view.id === server.id)?.status.state === 'connected', { what: 'the npx server to run', timeoutMs: 120_000 });
    expect(seen[0]).toEqual({ since: expect.any(Number), command: `npx -y ./${tarball}` });
    expect(host.getState().servers.find((view) => view.id === server.id)?.status.preparing).toBeUndefined();
  });

  it('holds the host’s session when the sandbox blocks the server, says why, and starts it again on the grant', async () => {
    const configDir = tempDir('enforced-proxy-');
    const project = folderWith('project', 'needed');
    const { rootId, serverId } = await editRegistry(configDir, async (editor) => {
      const { added } = await editor.addRoots([project.dir]);
      // Its folder in its arguments: without a grant the sandbox hides it and the server exits.
      const transport: StdioTransportConfig = { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, project.dir], env: {} };
      const server = await editor.addServer({ name: 'fs-held', transport, enabled: true, sharing: true });
      await editor.setGrants([server.id], [added[0]?.id as string], true);
      return { rootId: added[0]?.id as string, serverId: server.id };
    });
    const client = await proxiedClient(configDir, 'fs-held', { era: 'legacy' });
    const read = async () => toolText(await client.callTool({ name: 'read_text_file', arguments: { path: project.file } }));
    expect(await read()).toBe('needed');

    // The revoke restarts it without the folder: it exits on start, blocked. Before, the proxy ended with it.
    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootId], false));
    const [held] = await waitFor(async () => {
      const live = await listLiveProxies(configDir);
      return live[0]?.held ? live : undefined;
    }, { what: 'the proxy to hold the blocked server', timeoutMs: 30_000 });
    expect(held).toMatchObject({ state: 'held-off', held: { reason: 'blocked-path' } });
    expect(held?.error).toContain(project.dir);
    await expect(read()).rejects.toThrow(/starts again when its grants or settings change/);

    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootId], true, 'read-write'));
    await waitFor(async () => (await read().catch(() => '')) === 'needed', { what: 'the server back after the grant, in the same session', timeoutMs: 30_000, explain: () => proxyStderr(client) });
    expect((await listLiveProxies(configDir))[0]?.held).toBeUndefined();
  });
});
