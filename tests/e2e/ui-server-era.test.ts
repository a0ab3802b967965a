// The server detail says which protocol era a server runs in and why, and, for a server that asks
// for its folders once, that changes reach it by a restart: in light and dark, at 800x600 and
// 1280x800, with no serious axe finding and no page or console error.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRoot, callText } from '../support/host-harness.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES } from './ui-checks.js';
import { repoRoot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession;
const problems: string[] = [];

beforeAll(async () => {
  // A 2025-only server answers the probe with an error once it is up: a long wait costs nothing here
  // and keeps the reason the one shown below whatever the load.
  session = await startUiSession({ probeTimeoutMs: 60_000 });
  session.page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  session.page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

describe('the era and the re-read note in the server detail', () => {
  it('shows why the era was chosen, and that an ask-once server restarts to apply changes', async () => {
    const { page, host } = session;
    const folder = await addRoot(host, tempDir('era-ui-'));
    const server = await host.addServer({
      name: 'asks-once',
      transport: { type: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'tests/fixtures/roots-echo-server.mjs'), 'asks-once'], env: {} },
      enabled: true,
      sharing: true,
      sandbox: false,
    });
    const status = () => host.getState().servers.find((candidate) => candidate.id === server.id)?.status;
    await waitFor(() => status()?.state === 'connected', { what: 'connected', timeoutMs: 60_000 });
    await callText(host, server.id, 'last-roots');
    await host.setGrants([server.id], [folder], true);
    await waitFor(() => status()?.rereadsRoots === false && status()?.state === 'connected', { what: 'it to be learned as ask-once', timeoutMs: 60_000 });

    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /asks-once/ }).click();
    const note = page.getByText('Restarts to apply changes: it does not re-read its folders', { exact: true });
    await note.waitFor({ timeout: 60_000 });
    // The page may still show the restart's 'connecting' (no session, so no era yet): wait for the session.
    const why = page.getByText('speaks only the 2025 protocol', { exact: true });
    await why.waitFor({ timeout: 60_000 });
    await expect(why.count()).resolves.toBe(1);

    await lookEverywhere(page, 'server-era', { sizes: SCREEN_SIZES, inView: () => note.scrollIntoViewIfNeeded() });
    expect(problems).toEqual([]);
  }, 240_000);
});
