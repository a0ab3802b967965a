// `mcp-roots proxy` ends with its host, whatever it is doing when the host goes: restarting its
// server, waiting for a restarted server's handshake, or idle. Real processes throughout: the built
// command as hosts run it, a bare host on its pipes, and a server that ignores both the end of
// stdin and SIGTERM (only SIGKILL, the MCP spec's last step, ends it).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../electron/host/registry/process-alive.js';
import { listLiveProxies } from '../../electron/host/status/proxy-status.js';
import { CLI_BIN, ensureBuilt, repoRoot } from '../support/cli.js';
import { editRegistry } from '../support/host-harness.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { RawPeer } from './raw-peer.js';
import { isRunning, startChild } from '../support/child-process.js';

const STUBBORN = path.join(repoRoot, 'tests/fixtures/stubborn-server.mjs');
/** "Within a few seconds": the transport's own escalation takes 4 s on this server; room for load. */
const GONE_WITHIN_MS = 10_000;

const hosts: RawPeer[] = [];
const pidLogs: string[] = [];

afterEach(() => {
  for (const host of hosts.splice(0)) host.kill();
  for (const pid of pidLogs.splice(0).flatMap(pidsIn)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
  removeTempDirs();
});

function pidsIn(log: string): number[] {
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

/** A host that has done its handshake through the proxy with a stubborn server (sandbox off: nothing else would end it). */
async function proxiedStubborn(env: Record<string, string> = {}): Promise<{ host: RawPeer; configDir: string; serverId: string; pidLog: string }> {
  await ensureBuilt();
  const configDir = tempDir('proxy-gone-config-');
  const pidLog = path.join(tempDir('proxy-gone-pids-'), 'pids');
  pidLogs.push(pidLog);
  const serverId = await editRegistry(configDir, async (editor) => {
    const server = await editor.addServer({
      name: 'stubborn',
      transport: { type: 'stdio', command: process.execPath, args: [STUBBORN], env: { PID_LOG: pidLog, ...env } },
      enabled: true,
      sharing: true,
      sandbox: false,
    });
    return server.id;
  });
  const host = new RawPeer(process.execPath, [CLI_BIN, '--config-dir', configDir, 'proxy', 'stubborn'], { cwd: repoRoot });
  hosts.push(host);
  const answer = await host.request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test-host', version: '1.0.0' } });
  expect(answer.result?.serverInfo).toMatchObject({ name: 'stubborn' });
  host.notify('notifications/initialized');
  return { host, configDir, serverId, pidLog };
}

/** A config change: the proxy restarts its server behind the host. */
function changeConfig(configDir: string, serverId: string, env: Record<string, string>) {
  return editRegistry(configDir, (editor) => {
    const record = editor.registry.servers.find((server) => server.id === serverId);
    if (record?.transport.type !== 'stdio') throw new Error('no stdio server');
    return editor.updateServer(serverId, { transport: { ...record.transport, env: { ...record.transport.env, ...env } } });
  });
}

async function everythingGone(host: RawPeer, pidLog: string): Promise<void> {
  const started = Date.now();
  await waitFor(() => host.ended, { timeoutMs: GONE_WITHIN_MS, what: 'the proxy to end', explain: () => host.stderr.slice(-2000) });
  await waitFor(() => pidsIn(pidLog).every((pid) => !isProcessAlive(pid)), {
    timeoutMs: Math.max(1, GONE_WITHIN_MS - (Date.now() - started)),
    what: `every server the proxy started (${pidsIn(pidLog).join(', ')}) to end`,
  });
}

describe('mcp-roots proxy ends with its host', () => {
  it('host killed while the proxy restarts its server (closing the old one): no new server, proxy and servers gone', async () => {
    const { host, configDir, serverId, pidLog } = await proxiedStubborn();
    await changeConfig(configDir, serverId, { STEP: '2' });
    // The old server ignores stdin's end and SIGTERM: the restart spends seconds closing it.
    await waitFor(async () => (await listLiveProxies(configDir))[0]?.state === 'restarting', { what: 'the restart to begin' });
    host.hangUp();
    await everythingGone(host, pidLog);
    // The restart did not go on to start a server nobody would talk to.
    expect(pidsIn(pidLog)).toHaveLength(1);
  });

  it('host killed while a restarted server has not answered its handshake: gone within seconds, not after the 20 s handshake timeout', async () => {
    const { host, configDir, serverId, pidLog } = await proxiedStubborn({ STALL_REPLAY: '1' });
    await changeConfig(configDir, serverId, { STEP: '2' });
    await waitFor(() => pidsIn(pidLog).length === 2, { timeoutMs: 30_000, what: 'the restarted server' });
    host.hangUp();
    await everythingGone(host, pidLog);
  });

  it('host killed while another process still holds the proxy’s stdin open: the proxy sees its parent change, and it and its server end', async () => {
    await ensureBuilt();
    const configDir = tempDir('proxy-gone-config-');
    const pidLog = path.join(tempDir('proxy-gone-pids-'), 'pids');
    pidLogs.push(pidLog);
    await editRegistry(configDir, (editor) =>
      editor.addServer({ name: 'stubborn', transport: { type: 'stdio', command: process.execPath, args: [STUBBORN], env: { PID_LOG: pidLog } }, enabled: true, sharing: true, sandbox: false }),
    );
    const host = startChild(process.execPath, [path.join(repoRoot, 'tests/fixtures/host-sharing-stdin.mjs'), CLI_BIN, configDir, 'stubborn'], { cwd: repoRoot });
    const [line] = await host.waitForOutput(/\{"proxy":\d+,"sharer":\d+\}/, 60_000);
    const { proxy, sharer } = JSON.parse(line) as { proxy: number; sharer: number };
    try {
      await waitFor(() => pidsIn(pidLog).length === 1, { what: 'the server' });
      host.child.kill('SIGKILL');
      await host.exited;
      // The sharer still holds the proxy's stdin: no end of input comes.
      expect(isRunning(sharer)).toBe(true);
      // Its parent was killed: the proxy and its server are PID 1's now, which may not reap them.
      await waitFor(() => !isRunning(proxy), { timeoutMs: GONE_WITHIN_MS, what: 'the proxy to end', explain: () => host.stderr() });
      await waitFor(() => pidsIn(pidLog).every((pid) => !isRunning(pid)), { timeoutMs: GONE_WITHIN_MS, what: 'its server to end' });
      expect(host.stderr()).toMatch(/the host that started it \(pid \d+\) is gone: ending/);
    } finally {
      process.kill(sharer, 'SIGKILL');
    }
  });

  it('host closes stdin while idle: the server that ignores stdin and SIGTERM is killed, the proxy exits', async () => {
    const { host, pidLog } = await proxiedStubborn();
    await waitFor(() => pidsIn(pidLog).length === 1, { what: 'the server' });
    const code = await host.close();
    expect(code).toBe(0);
    await everythingGone(host, pidLog);
  });
});
