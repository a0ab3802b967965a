// Secrets in server configs, end to end with real servers: sealed in config.json, clear only in
// the server's own process, masked in everything a UI receives, and refused (not passed on
// sealed) by a process that cannot decrypt them.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_FILE } from '../../electron/host/registry/registry-store.js';
import type { RootsHost } from '../../electron/host/roots-host.js';
import type { ServerView, StdioTransportConfig } from '../../shared/domain.js';
import { SECRET_MASK } from '../../shared/secrets.js';
import { fakeSecretCodec } from '../support/fake-secret-codec.js';
import { addCountedServer, callText, dispatch, startHost, stopHosts } from '../support/host-harness.js';
import { everythingServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';

const SECRET = 'sk-live-4f9c2b7e1d';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

/** Everything the host sends toward a UI: state pushes, activity pushes, and contract results. */
function recordUiTraffic(host: RootsHost): string[] {
  const sent: string[] = [];
  host.on('state', (state) => sent.push(JSON.stringify(state)));
  host.on('activity', (activity) => sent.push(JSON.stringify(activity)));
  return sent;
}

async function call(host: RootsHost, sent: string[], channel: string, payload?: unknown): Promise<unknown> {
  const result = await dispatch(host, channel, payload);
  sent.push(JSON.stringify(result));
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value;
}

const configText = (host: RootsHost) => fs.readFileSync(host.store.path, 'utf8');
const statusOf = (host: RootsHost, id: string) => host.getState().servers.find((server) => server.id === id)?.status;

async function serverEnv(host: RootsHost, id: string): Promise<Record<string, string>> {
  return JSON.parse(await callText(host, id, 'get-env')) as Record<string, string>;
}

describe('secrets at rest', () => {
  it('the server gets the clear value; config.json and everything sent to a UI never hold it', async () => {
    const host = await startHost({ secrets: fakeSecretCodec() });
    const sent = recordUiTraffic(host);
    const transport = { ...everythingServer(), env: { MCP_SECRET_PROBE: SECRET } };
    const view = (await call(host, sent, 'servers.add', { name: 'everything', transport, enabled: true, sharing: true })) as ServerView;
    await waitFor(() => statusOf(host, view.id)?.state === 'connected', { what: 'everything to connect', timeoutMs: 15_000 });

    expect((await serverEnv(host, view.id)).MCP_SECRET_PROBE).toBe(SECRET);
    expect(configText(host)).not.toContain(SECRET);
    expect(configText(host)).toMatch(/"MCP_SECRET_PROBE": ?"enc:v1:[A-Za-z0-9+/]+=*"/);

    // The UI edits the server with the mask it was given for the secret, and adds a variable.
    const shown = (await call(host, sent, 'state.get')) as { servers: ServerView[] };
    const maskedEnv = (shown.servers[0]?.transport as { env: Record<string, string> }).env;
    expect(maskedEnv).toEqual({ MCP_SECRET_PROBE: SECRET_MASK });
    await call(host, sent, 'servers.update', {
      serverId: view.id,
      patch: { transport: { ...transport, env: { ...maskedEnv, REGION: 'eu-west-1' } } },
    });
    await waitFor(async () => statusOf(host, view.id)?.state === 'connected' && (await serverEnv(host, view.id)).REGION === 'eu-west-1', {
      what: 'restart with the new variable',
      timeoutMs: 15_000,
    });
    expect((await serverEnv(host, view.id)).MCP_SECRET_PROBE).toBe(SECRET);
    expect(configText(host)).not.toContain(SECRET);
    expect(configText(host)).not.toContain('eu-west-1');

    await call(host, sent, 'servers.activity', { serverId: view.id });
    await call(host, sent, 'state.get');
    expect(sent.length).toBeGreaterThan(3);
    expect(sent.join('\n')).not.toContain(SECRET);
  });

  it('a server that prints its token to stderr shows the mask in the activity log', async () => {
    const host = await startHost({ secrets: fakeSecretCodec(), connection: { connectTimeoutMs: 3000 } });
    const sent = recordUiTraffic(host);
    // Not an MCP server: it only reports what it was given, then waits.
    const script =
      "const v = process.env.API_TOKEN ?? ''; " +
      "console.error('sealed=' + v.startsWith('enc:') + ' length=' + v.length + ' token=' + v); setTimeout(() => {}, 30000);";
    const server = await host.addServer({
      name: 'talkative',
      transport: { type: 'stdio', command: process.execPath, args: ['-e', script], env: { API_TOKEN: SECRET } },
      enabled: true,
      sharing: true,
    });
    await waitFor(() => host.activity(server.id).some((entry) => entry.kind === 'stderr'), { what: 'the stderr line' });
    const line = host.activity(server.id).find((entry) => entry.kind === 'stderr')?.message;
    expect(line).toBe(`sealed=false length=${SECRET.length} token=${SECRET_MASK}`);
    expect(sent.join('\n')).not.toContain(SECRET);
  });

  it('HTTP header values reach the server in clear and are sealed on disk', async () => {
    const seen: (string | undefined)[] = [];
    const endpoint = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    try {
      const host = await startHost({ secrets: fakeSecretCodec(), connection: { reconnectDelaysMs: [60_000] } });
      const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/mcp`;
      await host.addServer({ name: 'remote', transport: { type: 'http', url, headers: { Authorization: `Bearer ${SECRET}` } }, enabled: true, sharing: true });
      await waitFor(() => seen.length > 0, { what: 'a request to reach the endpoint' });
      expect(seen[0]).toBe(`Bearer ${SECRET}`);
      expect(configText(host)).not.toContain(SECRET);
      expect(JSON.stringify(host.getState())).not.toContain(SECRET);
    } finally {
      endpoint.close();
    }
  });

  it('a process without the keychain (serve, CLI, proxy) refuses to start the server with a clear error, spawning nothing', async () => {
    const configDir = tempDir('mcp-roots-config-');
    const app = await startHost({ configDir, secrets: fakeSecretCodec(), runServers: false });
    // Counted (each start appends to a count file in a folder granted to it, its sandbox allows it).
    const { id, countFile } = await addCountedServer(app, 'everything', { ...everythingServer(), env: { MCP_SECRET_PROBE: SECRET } });
    const transport = app.registrySnapshot.servers.find((server) => server.id === id)?.transport as StdioTransportConfig;
    await app.stop();
    expect(fs.readFileSync(path.join(configDir, CONFIG_FILE), 'utf8')).not.toContain(SECRET);

    const headless = await startHost({ configDir, connection: { reconnectDelaysMs: [50] } });
    await waitFor(() => statusOf(headless, id)?.state === 'error', { what: 'the server to be refused' });
    const status = statusOf(headless, id);
    expect(status?.error).toContain('MCP_SECRET_PROBE');
    expect(status?.error).toMatch(/this secret was encrypted by the desktop app .*; start the server there or re-enter it/);
    // No retry loop (none is even scheduled), and no child ever saw "enc:v1:…" as its value.
    expect(status?.nextRetryAt).toBeUndefined();
    expect(headless.activity(id).filter((entry) => entry.kind === 'error').reduce((sum, entry) => sum + (entry.count ?? 1), 0)).toBe(1);
    expect(fs.existsSync(countFile)).toBe(false);

    // Re-entering the value there starts it (stored as given: this process has no keychain).
    await headless.updateServer(id, { transport: { ...transport, env: { MCP_SECRET_PROBE: 'typed-again-123' } } });
    await waitFor(() => statusOf(headless, id)?.state === 'connected', { what: 'start after re-entry', timeoutMs: 15_000 });
    expect((await serverEnv(headless, id)).MCP_SECRET_PROBE).toBe('typed-again-123');
  });
});
