// A network-on server whose pasta fails at its start (not missing: failing, as when it cannot join
// the namespace): the app and the proxy say so with pasta's own words and the narrow fix, never a
// bare "Cannot start", never "turn the sandbox off". pasta fails for real here: a `pasta` script
// that says why and exits 1, given as the probe's pasta.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeKey } from '../../electron/host/sandbox/probe-cache.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { ServerStatus } from '../../shared/domain.js';
import { closeProxiedClients, proxiedClient } from '../support/proxied-client.js';
import { editRegistry, startHost, stopHosts } from '../support/host-harness.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';

const support = await probeSandbox();
const PASTA_SAID = "Couldn't open network namespace /proc/4242/ns/net: Permission denied";
const server = { type: 'stdio' as const, command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: {} };

afterEach(async () => {
  await closeProxiedClients();
  await stopHosts();
  removeTempDirs();
});

/** The probe's answer with its pasta replaced by one that fails as pasta does: its reason on stderr, exit 1. */
function failingPasta() {
  const pasta = path.join(tempDir('failing-pasta-'), 'pasta');
  fs.writeFileSync(pasta, `#!/bin/sh\necho "Failed to open() /dev/net/tun: Permission denied" >&2\necho "${PASTA_SAID}" >&2\nexit 1\n`, { mode: 0o755 });
  return { ...support, privateNetwork: { pasta, reason: 'pasta gives each network-on server a network namespace of its own' } };
}

// Where pasta works, network-on servers get it: that is where its failing at a start can happen.
describe.runIf(support.kind === 'bwrap' && support.privateNetwork?.pasta)('pasta failing at a server’s start', () => {
  it('the app: a coded failure with pasta’s last line and the narrow fix, retried like any failure', async () => {
    const host = await startHost({ connection: { sandboxSupport: failingPasta(), reconnectDelaysMs: [60_000] } });
    const added = await host.addServer({ name: 'web browser', transport: server, enabled: true, sharing: true, sandbox: true, network: true });
    const status = await waitFor(
      () => {
        const found = host.getState().servers.find((s) => s.id === added.id)?.status;
        return found?.failure ? found : undefined;
      },
      { what: 'the failure', timeoutMs: 20_000 },
    );
    expect(status.state).toBe('error');
    expect(status.failure).toMatchObject({ code: 'private-network', server: 'web browser', detail: PASTA_SAID });
    expect(status.error).toBe(
      `pasta could not give it a network of its own (${PASTA_SAID}): if it does not need the network, turn its network off (mcp-roots servers set 'web browser' --network off); otherwise repair pasta (package "passt"), which gives each network-on server a network of its own`,
    );
    expect(status.error).not.toMatch(/Cannot start|sandbox off|without (the )?sandbox/i);
    // The server never ran without its network: nothing is running.
    expect((status as ServerStatus).pid).toBeUndefined();
  }, 30_000);

  it('the proxy: its stderr says the same, with the fix for that server', async () => {
    const configDir = tempDir('pasta-proxy-config-');
    await editRegistry(configDir, (editor) => editor.addServer({ name: 'browser', transport: server, enabled: true, sharing: true, sandbox: true, network: true }));
    // The proxy reads the probe kept for this boot (probe-cache.ts): the failing pasta is what it finds.
    fs.mkdirSync(path.join(configDir, 'sandbox'), { recursive: true });
    fs.writeFileSync(path.join(configDir, 'sandbox', 'probe.json'), JSON.stringify({ key: probeKey(), support: failingPasta() }));
    const outcome = await proxiedClient(configDir, 'browser', { era: 'legacy' }).then(
      () => 'connected',
      (error: Error) => error.message,
    );
    expect(outcome).toContain(`could not start the server: pasta could not set up the server's network: ${PASTA_SAID}; if it does not need the network, turn its network off (mcp-roots servers set browser --network off)`);
    expect(outcome).not.toMatch(/sandbox off|without (the )?sandbox/i);
  }, 60_000);
});
