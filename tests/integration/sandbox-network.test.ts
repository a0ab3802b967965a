// A network-on server's reach into this computer (issue #28): the host's loopback is closed to it
// unless the person opens a port for it, and its DNS works even where this computer's resolver
// listens on the loopback (systemd-resolved). Through confineStdio itself, the app and the proxy,
// as root and as nobody, against real listeners on the host's 127.0.0.1.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { anyPathServer, closeConfined, startConfined } from '../support/confined-client.js';
import { addConnectedServer, callText, editRegistry, startHost, stopHosts } from '../support/host-harness.js';
import { closeProxiedClients, proxiedClient } from '../support/proxied-client.js';
import { removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const support = await probeSandbox();
const privateNetwork = support.kind === 'bwrap' && support.privateNetwork?.pasta !== undefined;
const repoRoot = path.resolve(import.meta.dirname, '../..');
const listeners: net.Server[] = [];

afterEach(async () => {
  await closeConfined();
  await closeProxiedClients();
  await stopHosts();
  for (const listener of listeners.splice(0)) listener.close();
  removeTempDirs();
});

/** A service bound on this computer's 127.0.0.1 only, as a debugging port or a dev server is. */
async function hostService(): Promise<number> {
  const listener = net.createServer((socket) => socket.end());
  listeners.push(listener);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return (listener.address() as net.AddressInfo).port;
}

const base = (localPorts: number[] = []) => ({ serverId: `net-${localPorts.join('-') || 'closed'}`, roots: [], dataDir: tempDir('net-data-'), network: true, localPorts, support });

describe.runIf(privateNetwork)("this computer's loopback, closed to a network-on server unless opened", () => {
  it('refuses a host 127.0.0.1 service by default, reaches exactly the port opened for it, and says so in its self-check', async () => {
    const [open, closed] = [await hostService(), await hostService()];
    const shut = await startConfined(anyPathServer(), base());
    expect(await shut.call('connect', { port: open })).toMatch(/^ERROR ECONNREFUSED/);
    const check = await shut.confined.selfCheck(shut.pid);
    expect(check.detail).toContain("this computer's loopback closed to it and nothing reaches it from outside (pasta's settings)");

    const opened = await startConfined(anyPathServer(), base([open]));
    expect(await opened.call('connect', { port: open })).toBe('connected');
    expect(await opened.call('connect', { port: closed })).toMatch(/^ERROR ECONNREFUSED/);
    expect((await opened.confined.selfCheck(opened.pid)).detail).toContain(`closed to it except port(s) ${open}, opened by you`);
  });

  it('through the app: a port opened with the setting is reached after the restart it causes, and closed again', async () => {
    const port = await hostService();
    const host = await startHost();
    const server = await addConnectedServer(host, 'local client', anyPathServer());
    const connect = () => callText(host, server, 'connect', { port });
    expect(await connect()).toMatch(/^ERROR ECONNREFUSED/);
    await host.updateServer(server, { allowLocal: [port] });
    await waitFor(async () => (await connect().catch((error: Error) => error.message)) === 'connected', { what: `port ${port} reached after --allow-local`, timeoutMs: 30_000 });
    await host.updateServer(server, { allowLocal: [] });
    await waitFor(async () => /^ERROR ECONNREFUSED/.test(await connect().catch((error: Error) => error.message)), { what: `port ${port} closed again`, timeoutMs: 30_000 });
  });

  it('through the proxy: the port in the registry is reached, another is not', async () => {
    const [open, closed] = [await hostService(), await hostService()];
    const configDir = tempDir('net-config-');
    await editRegistry(configDir, async (editor) => {
      await editor.addServer({ name: 'remote', transport: anyPathServer(), enabled: true, sharing: true, sandbox: true, network: true, allowLocal: [open] });
    });
    const client = await proxiedClient(configDir, 'remote');
    const connect = async (port: number) => toolText(await client.callTool({ name: 'connect', arguments: { port } }));
    expect(await connect(open)).toBe('connected');
    expect(await connect(closed)).toMatch(/^ERROR ECONNREFUSED/);
  });
});

describe.runIf(privateNetwork && process.getuid?.() === 0)('DNS with the resolver on the loopback', () => {
  it("answers through this computer's resolver at 127.0.0.53, which the server itself cannot reach", async () => {
    // In a mount namespace of its own, so that this computer's /etc/resolv.conf is untouched.
    const dataDir = tempDir('net-resolver-');
    const { stdout } = await promisify(execFile)('unshare', ['-m', process.execPath, '--import', 'tsx', 'tests/fixtures/loopback-resolver-world.ts', dataDir], { cwd: repoRoot });
    const facts = JSON.parse(stdout.trim().split('\n').at(-1) as string);
    expect(facts).toMatchObject({ privateNetwork: true, lookup: '192.0.2.77', asked: expect.arrayContaining(['anything.test']) });
  }, 60_000);
});

describe.runIf(support.kind === 'bwrap' && process.getuid?.() === 0)('as an unprivileged user', () => {
  it('the loopback is closed the same way where pasta works for that user, and says why where it does not', async () => {
    const [open, closed] = [await hostService(), await hostService()];
    const dataDir = tempDir('net-nobody-');
    fs.chmodSync(dataDir, 0o777);
    const { stdout } = await promisify(execFile)(
      'setpriv',
      ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', process.execPath, '--import', 'tsx', 'tests/fixtures/loopback-world.ts', dataDir, String(open), String(closed)],
      { cwd: repoRoot, env: { ...process.env, HOME: dataDir } },
    );
    const facts = JSON.parse(stdout.trim().split('\n').at(-1) as string);
    expect(facts.uid).toBe(65534);
    if (facts.privateNetwork) {
      expect(facts).toMatchObject({ open: 'connected', closed: expect.stringMatching(/^ERROR ECONNREFUSED/), shut: expect.stringMatching(/^ERROR ECONNREFUSED/) });
    } else {
      // Here /dev/net/tun is root's only (Debian's default is 0666): pasta cannot run for nobody, the
      // server shares the host's network, and its self-check says the loopback is open, and why.
      expect(facts.detail).toMatch(/network shared with the host.*this computer's loopback open to it/);
    }
  }, 60_000);
});
