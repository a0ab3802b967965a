// A restart that must happen (a config change, a server that asks for its folders only once) waits
// for the tool calls running on the old process, holds the calls that come meanwhile and sends them
// to the new process after its handshake. No call is failed with "Please retry". A real server with
// a real 6 s tool, through `mcp-roots proxy` and through the app's own connections.
import type { Client } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listLiveProxies } from '../../electron/host/status/proxy-status.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { addRoot, editRegistry, startHost, stopHosts } from '../support/host-harness.js';
import { closeProxiedClients, proxiedClient, proxyStderr } from '../support/proxied-client.js';
import { removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const echo = (mode: 'follows' | 'asks-once', env: Record<string, string> = {}): StdioTransportConfig => ({
  type: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures/roots-echo-server.mjs'), mode],
  env,
});
const SLOW_MS = 6000;

afterEach(async () => {
  await closeProxiedClients();
  await stopHosts();
  removeTempDirs();
});

const pidOf = (text: string) => (JSON.parse(text) as { pid: number }).pid;

/** Starts the 6 s call and resolves once the server is running it (it wrote its pid). */
async function slowCall<T>(call: (args: Record<string, unknown>) => Promise<T>): Promise<{ done: Promise<T>; pid: number }> {
  const started = path.join(tempDir('drain-marker-'), 'started');
  const done = call({ ms: SLOW_MS, started });
  // An early failure must show as itself, not as a marker that never came.
  done.catch(() => undefined);
  await waitFor(() => fs.existsSync(started) && fs.readFileSync(started, 'utf8') !== '', { what: 'the slow call to be running' });
  return { done, pid: Number(fs.readFileSync(started, 'utf8')) };
}

function callOn(client: Client, name: string, args: Record<string, unknown> = {}) {
  return client.callTool({ name, arguments: args }, { timeout: 120_000 });
}

describe('a restart drains running calls', () => {
  it('through the proxy: a config change during a 6 s call lets it finish; a call sent meanwhile is answered by the new process', async () => {
    const configDir = tempDir('drain-proxy-config-');
    const serverId = await editRegistry(configDir, async (editor) => (await editor.addServer({ name: 'echo', transport: echo('follows'), enabled: true, sharing: true, sandbox: false })).id);
    const client = await proxiedClient(configDir, 'echo');
    const order: string[] = [];
    const slow = await slowCall((args) => callOn(client, 'slow', args).then((result) => (order.push('slow'), result)));

    await editRegistry(configDir, (editor) => editor.updateServer(serverId, { transport: echo('follows', { CHANGED: '1' }) }));
    const draining = await waitFor(async () => (await listLiveProxies(configDir)).find((live) => live.state === 'draining'), {
      what: 'the status file to say the restart waits for the running call',
      explain: () => proxyStderr(client),
    });
    expect(draining.draining).toMatchObject({ calls: 1, limitMs: 30_000 });
    const during = callOn(client, 'pid').then((result) => (order.push('during'), result));

    const finished = await slow.done;
    expect(finished.isError).toBeFalsy();
    expect(pidOf(toolText(finished))).toBe(slow.pid);
    const answered = await during;
    expect(answered.isError).toBeFalsy();
    expect(pidOf(toolText(answered))).not.toBe(slow.pid);
    expect(order).toEqual(['slow', 'during']);
    expect(proxyStderr(client)).toContain('Restarting when 1 running call finishes (at most 30 s).');
    expect(proxyStderr(client)).not.toMatch(/please retry/i);
    await waitFor(async () => (await listLiveProxies(configDir)).find((live) => live.state === 'ready' && live.restartCount === 1), { what: 'ready again, restarted once' });
  });

  it('through the proxy: a grant to a server that asks only once restarts it after its running call, and the call succeeds', async () => {
    const configDir = tempDir('drain-once-config-');
    const folder = tempDir('drain-once-folder-');
    const { serverId, rootId } = await editRegistry(configDir, async (editor) => {
      const root = await addRoot(editor, folder);
      const server = await editor.addServer({ name: 'once', transport: echo('asks-once'), enabled: true, sharing: true, sandbox: false });
      return { serverId: server.id, rootId: root };
    });
    const client = await proxiedClient(configDir, 'once');
    // Its first call makes it ask (and learn nothing is granted); the second runs 6 s.
    expect(JSON.parse(toolText(await callOn(client, 'last-roots')))).toEqual({ asked: 1, uris: [] });
    const slow = await slowCall((args) => callOn(client, 'slow', args));

    await editRegistry(configDir, (editor) => editor.setGrants([serverId], [rootId], true));
    const finished = await slow.done;
    expect(finished.isError).toBeFalsy();
    expect(pidOf(toolText(finished))).toBe(slow.pid);
    await waitFor(async () => JSON.stringify(JSON.parse(toolText(await callOn(client, 'last-roots'))).uris) === JSON.stringify([pathToFileURL(folder).href]), {
      what: 'the grant to reach the restarted server',
      timeoutMs: 60_000,
      explain: () => proxyStderr(client),
    });
    expect(pidOf(toolText(await callOn(client, 'pid')))).not.toBe(slow.pid);
    expect(proxyStderr(client)).toContain('Restarting when 1 running call finishes');
    expect(proxyStderr(client)).not.toMatch(/please retry/i);
  });

  it("through the app: a config change during a 6 s call lets it finish; a call sent meanwhile is answered by the new process", async () => {
    const host = await startHost();
    const { id } = await host.addServer({ name: 'echo', transport: echo('follows'), enabled: true, sharing: true, sandbox: false });
    const status = () => host.getState().servers.find((server) => server.id === id)?.status;
    await waitFor(() => status()?.lifecycle === 'ready', { what: 'ready' });
    const slow = await slowCall((args) => host.callTool(id, 'slow', args));

    await host.updateServer(id, { transport: echo('follows', { CHANGED: '1' }) });
    await waitFor(() => status()?.lifecycle === 'draining', { what: 'draining' });
    expect(status()?.draining).toMatchObject({ calls: 1, limitMs: 30_000, reason: 'The server’s settings changed.' });
    const during = host.callTool(id, 'pid');

    const finished = await slow.done;
    expect(pidOf(toolText(finished))).toBe(slow.pid);
    expect(pidOf(toolText(await during))).not.toBe(slow.pid);
    await waitFor(() => status()?.lifecycle === 'ready' && status()?.draining === undefined, { what: 'ready again' });
    // The log says why it restarts, then that it waits for the running call.
    const entries = host.activity(id);
    const why = entries.find((entry) => entry.kind === 'restart' && entry.code === 'config-changed');
    const waiting = entries.find((entry) => entry.code === 'drain-waiting');
    expect(waiting).toMatchObject({ message: 'Restarting when 1 running call finishes (at most 30 s).', params: { count: 1, seconds: 30 } });
    expect(why?.seq).toBeLessThan(waiting?.seq ?? 0);
    expect(host.activity(id).filter((entry) => entry.kind === 'error')).toEqual([]);
  });

  it('through the app: past the drain limit, the call still running gets an error that says what happened and why, and the log records it', async () => {
    const host = await startHost({ connection: { drainLimitMs: 1000 } });
    const { id } = await host.addServer({ name: 'echo', transport: echo('follows'), enabled: true, sharing: true, sandbox: false });
    await waitFor(() => host.getState().servers.find((server) => server.id === id)?.status.lifecycle === 'ready', { what: 'ready' });
    const slow = await slowCall((args) => host.callTool(id, 'slow', { ...args, ms: 60_000 }));

    await host.updateServer(id, { transport: echo('follows', { CHANGED: '1' }) });
    const error = await slow.done.then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error?.message).toBe(
      'echo was restarted while this call ran, after waiting 1 s for it to finish (the most a restart waits). Why it restarted: The server’s settings changed.',
    );
    const logged = host.activity(id).find((entry) => entry.kind === 'error');
    expect(logged).toMatchObject({ code: 'drain-cut', params: { count: 1, seconds: 1 } });
    // The new process answers.
    expect(pidOf(toolText(await host.callTool(id, 'pid')))).not.toBe(slow.pid);
  });
});
