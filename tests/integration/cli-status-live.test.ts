// `mcp-roots status` tells the truth about servers it does not run (issue #12 item 5): the states a
// running `serve` publishes, the sessions of a running proxy, and "unknown" once nothing runs them.
// Every process here is real: the built CLI, `mcp-roots serve`, `mcp-roots proxy`, server-filesystem.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN, ensureBuilt, runCli } from '../support/cli.js';
import { startChild, stopChildren } from '../support/child-process.js';
import { proxiedClient, closeProxiedClients } from '../support/proxied-client.js';
import { FILESYSTEM_ENTRY, removeTempDirs, tempDir, waitFor } from '../support/index.js';

interface LiveStatus {
  running: { kind: string; pid: number }[];
  servers: { name: string; live: { state: string; runBy?: { kind: string; pid: number }; protocolVersion?: string; lifecycle?: string } }[];
  proxies: { serverName: string; proxyPid: number; state: string }[];
}

afterEach(async () => {
  await closeProxiedClients();
  await stopChildren();
});
afterAll(() => removeTempDirs());

async function cli(configDir: string, ...args: string[]): Promise<string> {
  const result = await runCli(['--config-dir', configDir, ...args]);
  expect(result.code, `mcp-roots ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

const status = async (configDir: string) => JSON.parse(await cli(configDir, 'status', '--json')) as LiveStatus;
const server = (report: LiveStatus, name: string) => report.servers.find((entry) => entry.name === name);

describe('mcp-roots status with running processes', () => {
  it('shows what a running serve says of its servers, a running proxy, and "unknown" once they stop', async () => {
    await ensureBuilt();
    const configDir = tempDir('status-live-');
    const folder = tempDir('status-live-folder-');
    await cli(configDir, 'roots', 'add', folder);
    await cli(configDir, 'servers', 'add', 'fs', '--', process.execPath, FILESYSTEM_ENTRY);
    await cli(configDir, 'servers', 'add', 'off', '--disabled', '--', process.execPath, FILESYSTEM_ENTRY);
    await cli(configDir, 'grant', 'fs', folder);

    // Nothing runs yet: the enabled server's state is unknown, not a guess.
    const before = await status(configDir);
    expect(before.running).toEqual([]);
    expect(server(before, 'fs')?.live.state).toBe('unknown');
    expect(server(before, 'off')?.live.state).toBe('disabled');
    expect(await cli(configDir, 'status')).toContain("no app or serve on this registry, so the servers' states are unknown");

    const serve = startChild(process.execPath, [CLI_BIN, '--config-dir', configDir, 'serve', '--port', '0', '--no-open']);
    await serve.waitForOutput(/Open: http/, 60_000);
    const served = await waitFor(
      async () => {
        const report = await status(configDir);
        return server(report, 'fs')?.live.state === 'connected' ? report : undefined;
      },
      { what: 'status to show fs connected by serve', timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(served.running).toEqual([expect.objectContaining({ kind: 'serve', pid: serve.child.pid })]);
    expect(server(served, 'fs')?.live.runBy).toEqual({ kind: 'serve', pid: serve.child.pid });
    expect(server(served, 'fs')?.live.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Where it is in its life, in the lifecycle's words (the text form says only what 'connected' does not).
    expect(server(served, 'fs')?.live.lifecycle).toBe('ready');
    expect(server(served, 'off')?.live.lifecycle).toBe('stopped');
    expect(server(served, 'off')?.live.state).toBe('disabled');
    expect(await cli(configDir, 'status')).toMatch(/Running: mcp-roots serve \(pid \d+\)/);

    // A host runs fs through the proxy as well: status lists that session while it lives.
    const client = await proxiedClient(configDir, 'fs', { name: 'status-test-host' });
    const proxied = await waitFor(
      async () => {
        const report = await status(configDir);
        return report.proxies.find((proxy) => proxy.serverName === 'fs' && proxy.state === 'ready') ? report : undefined;
      },
      { what: 'status to list the proxy', timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(proxied.proxies).toHaveLength(1);
    await client.close();
    await waitFor(async () => (await status(configDir)).proxies.length === 0, { what: 'the proxy to leave status', timeoutMs: 30_000, intervalMs: 250 });

    // serve stops cleanly: its file goes with it, and the state is unknown again.
    expect(await serve.stop('SIGTERM')).toBe(0);
    const after = await status(configDir);
    expect(after.running).toEqual([]);
    expect(server(after, 'fs')?.live.state).toBe('unknown');
  }, 240_000);
});
