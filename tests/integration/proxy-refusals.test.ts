// Through the proxy, a host is told what the sandbox blocked and the command that would allow it:
// a server that ends because a path outside its grants is hidden, and a tool that reports such a
// path as not found (the compat suite checks the latter on a real server, desktop-commander).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { editRegistry } from '../support/host-harness.js';
import { closeProxiedClients, proxiedClient } from '../support/proxied-client.js';
import { removeTempDirs, tempDir } from '../support/index.js';

const support = await probeSandbox();
const cleanups: (() => void)[] = [];

afterAll(async () => {
  await closeProxiedClients();
  for (const cleanup of cleanups.splice(0)) cleanup();
  removeTempDirs();
});

describe.runIf(support.kind === 'bwrap')('the proxy names what the sandbox blocked', () => {
  it('a server that ends on a path outside its grants: the host gets the path and the command that grants it', async () => {
    // Outside /tmp (inside, /tmp is the server's own) and outside any grant; it exists on the host.
    const outside = fs.mkdtempSync(path.join(os.homedir(), '.mcp-roots-refusal-'));
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const config = path.join(outside, 'settings.json');
    fs.writeFileSync(config, '{}');
    const granted = tempDir('refusal-granted-');
    const configDir = tempDir('refusal-config-');
    await editRegistry(configDir, async (editor) => {
      const { added } = await editor.addRoots([granted]);
      // Node prints `ENOENT: no such file or directory, open '<config>'` and exits 1, as a server reading its settings would.
      const record = await editor.addServer({
        name: 'reads settings',
        transport: { type: 'stdio', command: process.execPath, args: ['-e', 'require("fs").readFileSync(process.argv[1])', config], env: {} },
        enabled: true,
        sharing: true,
        sandbox: true,
        network: false,
      });
      await editor.setGrants([record.id], [added[0]?.id as string], true);
    });
    const failure = await proxiedClient(configDir, 'reads settings', { era: 'legacy' }).then(
      () => 'connected',
      (error: Error) => error.message,
    );
    expect(failure).toContain(`The sandbox kept it from ${config} (not shared with it).`);
    expect(failure).toContain(`To allow it: mcp-roots roots add ${outside} && mcp-roots grant 'reads settings' ${outside} --read-only`);
  }, 60_000);
});
