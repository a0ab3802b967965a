// A proxy whose server cannot be started answers its host: the host's initialize, sent before the
// failure or after it, gets the reason and where to fix it as its error, at once (not the host's
// own time-out after a silent exit, #27). Then the proxy ends with code 1. The built command as hosts
// run it; as this user and, as root, as an unprivileged one too.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { CLI_BIN, ensureBuilt, repoRoot } from '../support/cli.js';
import { editRegistry } from '../support/host-harness.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { RawPeer } from './raw-peer.js';

const support = await probeSandbox();
const isRoot = process.getuid?.() === 0;
const hosts: RawPeer[] = [];

afterEach(() => {
  for (const host of hosts.splice(0)) host.kill();
  removeTempDirs();
});

const INITIALIZE = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test-host', version: '1.0.0' } };

async function proxyFor(sandbox: boolean, as: 'self' | 'nobody'): Promise<RawPeer> {
  await ensureBuilt();
  const configDir = tempDir('start-failure-config-');
  fs.chmodSync(configDir, 0o777);
  await editRegistry(configDir, (editor) =>
    editor.addServer({ name: 'mistyped', transport: { type: 'stdio', command: 'npxx', args: ['-y', 'some-server'], env: {} }, enabled: true, sharing: true, sandbox }),
  );
  if (as === 'nobody') for (const entry of fs.readdirSync(configDir, { recursive: true })) fs.chmodSync(`${configDir}/${entry as string}`, 0o777);
  const proxy = [CLI_BIN, '--config-dir', configDir, 'proxy', 'mistyped'];
  const host =
    as === 'nobody'
      ? new RawPeer('setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', process.execPath, ...proxy], { cwd: repoRoot })
      : new RawPeer(process.execPath, proxy, { cwd: repoRoot });
  hosts.push(host);
  return host;
}

const cases = [
  ...(support.kind === 'bwrap' ? [{ sandbox: true, users: isRoot ? (['self', 'nobody'] as const) : (['self'] as const) }] : []),
  { sandbox: false, users: ['self'] as const },
];

describe('a proxy whose server cannot start', () => {
  for (const { sandbox, users } of cases) {
    for (const as of users) {
      const who = as === 'self' ? (isRoot ? 'root' : 'this user') : 'an unprivileged user';
      it(`answers the host's initialize with the reason and the fix, then ends (sandbox ${sandbox ? 'on' : 'off'}, as ${who})`, async () => {
        const host = await proxyFor(sandbox, as);
        const answer = await host.request(1, 'initialize', INITIALIZE, 10_000);
        expect(answer.error?.message).toMatch(/^MCP Roots Manager could not start "mistyped": .*npxx.*\. Fix it in MCP Roots Manager \(the server's settings, or `mcp-roots servers set mistyped …`\), then reconnect this server in your app\.$/);
        await waitFor(() => host.ended, { what: 'the proxy to end', timeoutMs: 10_000 });
      });
    }
  }

  it('answers an initialize that comes after the failure too', async () => {
    const host = await proxyFor(support.kind === 'bwrap', 'self');
    await waitFor(() => /could not start the server/.test(host.stderr), { what: 'the failure', timeoutMs: 30_000 });
    const answer = await host.request(1, 'initialize', INITIALIZE, 10_000);
    expect(answer.error?.message).toMatch(/^MCP Roots Manager could not start "mistyped"/);
    await waitFor(() => host.ended, { what: 'the proxy to end', timeoutMs: 10_000 });
  });
});
