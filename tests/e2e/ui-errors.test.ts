// Errors a person can act on, in a real browser against real failing processes: a mistyped command
// says "Command not found" and offers the likely one; the fixed server then fails for its own reason,
// which the page shows in the server's own words with its exit code, never the SDK's internals.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { anyPathServer } from '../support/confined-client.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';

const support = await probeSandbox();

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  removeTempDirs();
});

describe('a server that cannot start', () => {
  it('says "command not found", fixes the typo in one click, then shows the server’s own error', async () => {
    session = await startUiSession();
    const { page, host } = session;
    const script = "console.error('Error: GITHUB_TOKEN environment variable is required'); process.exit(1)";
    // The command is `nod` (meant: node), found on no PATH.
    await host.addServer({ name: 'github', transport: { type: 'stdio', command: 'nod', args: ['-e', script], env: { GITHUB_TOKEN: '' } }, enabled: true, sharing: true });

    await page.getByRole('tab', { name: /Servers/ }).click();
    const failure = page.getByTestId('server-failure');
    await failure.getByText('Command not found: nod').waitFor({ timeout: 20_000 });
    await failure.getByText('Did you mean node?').waitFor();
    // The list says it too, so a person scanning the list sees which one is broken and why.
    await page.getByRole('navigation', { name: 'Servers' }).getByText('Command not found: nod').waitFor();
    await screenshot(page, 'error-command-not-found');

    await failure.getByRole('button', { name: 'Use node' }).click();
    await waitFor(() => {
      const transport = host.getState().servers[0]?.transport;
      return transport?.type === 'stdio' && transport.command === 'node';
    }, { what: 'the command fixed' });

    // Now node runs the script, which exits with code 1 and says why on stderr.
    await failure.getByText('Exited with code 1.').waitFor({ timeout: 20_000 });
    await failure.getByText('Error: GITHUB_TOKEN environment variable is required').waitFor();
    // The list beside says what happened, not the words again: the details quote them (#30 item 5).
    const card = page.getByRole('navigation', { name: 'Servers' }).locator('[aria-current="true"]');
    await card.locator('.server-list__failure', { hasText: 'Exited with code 1.' }).waitFor();
    expect(await card.locator('.server-list__failure').innerText()).toBe('Exited with code 1.');
    expect(await failure.innerText()).not.toMatch(/negotiation|probe|StdioClientTransport/i);
    // The SDK's own message is still there for the curious, folded away (innerText skips it above).
    expect(await failure.locator('details').getAttribute('open')).toBeNull();
    await screenshot(page, 'error-exited');
  });

  // pasta fails for real: a `pasta` that says why and exits 1, given as the probe's pasta.
  it.runIf(support.kind === 'bwrap' && support.privateNetwork?.pasta)('says pasta failed in its own words and turns the network off in one click, never the sandbox', async () => {
    const said = "Couldn't open network namespace /proc/4242/ns/net: Permission denied";
    const pasta = path.join(tempDir('failing-pasta-'), 'pasta');
    fs.writeFileSync(pasta, `#!/bin/sh\necho "${said}" >&2\nexit 1\n`, { mode: 0o755 });
    session = await startUiSession({ sandboxSupport: { ...support, privateNetwork: { pasta, reason: 'test' } } });
    const { page, host } = session;
    await host.addServer({ name: 'browser', transport: anyPathServer(), enabled: true, sharing: true, sandbox: true, network: true });

    await page.getByRole('tab', { name: /Servers/ }).click();
    const failure = page.getByTestId('server-failure');
    await failure.getByText(`pasta said: ${said}`, { exact: false }).waitFor({ timeout: 20_000 });
    await failure.getByText('If it does not need the network, turn its network off. Otherwise repair pasta (package “passt”).').waitFor();
    expect(await failure.innerText()).not.toMatch(/sandbox off|without (the )?sandbox/i);
    await screenshot(page, 'error-private-network');

    await failure.getByRole('button', { name: 'Turn its network off' }).click();
    const server = await waitFor(() => host.getState().servers.find((s) => s.name === 'browser' && !s.network && s.status.state === 'connected'), { what: 'the server connected with its network off', timeoutMs: 30_000 });
    expect(server.sandbox).toBe(true);
    expect(server.status.confinement).toMatchObject({ state: 'enforced', network: false });
  }, 60_000);
});
