// A server that sees the host's folders at other paths (a container's `-v /home/me/proj:/projects/proj`):
// the detail shows both paths of each mapped folder, and the folder it was told, at the server's
// path, is still named. A real roots-echo server reports what it was told; light and dark, 800x600
// and 1280x800, no serious axe finding, no page or console error.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRoot, callText } from '../support/host-harness.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES } from './ui-checks.js';
import { repoRoot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession;
const problems: string[] = [];

beforeAll(async () => {
  session = await startUiSession();
  session.page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  session.page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

describe('a server with a path map', () => {
  it('shows each mapped folder at both paths, and names the folder it was told at its own path', async () => {
    const { page, host } = session;
    const folder = tempDir('mapped-ui-');
    const rootId = await addRoot(host, folder);
    const server = await host.addServer({
      name: 'in-a-container',
      transport: { type: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'tests/fixtures/roots-echo-server.mjs')], env: {} },
      enabled: true,
      sharing: true,
      sandbox: false,
      pathMap: [{ hostPath: folder, serverPath: '/projects/mapped' }],
    });
    await host.setGrants([server.id], [rootId], true);
    // The server's own word: it was told the mapped path.
    await waitFor(async () => JSON.parse(await callText(host, server.id, 'last-roots').catch(() => '{}')).uris?.[0] === 'file:///projects/mapped', {
      what: 'the server told file:///projects/mapped',
      timeoutMs: 60_000,
    });

    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /in-a-container/ }).click();
    const mapped = page.getByTestId('mapped-folders');
    await mapped.getByText('/projects/mapped', { exact: true }).waitFor({ timeout: 60_000 });
    await expect(mapped.getByText(host.getState().roots.find((root) => root.id === rootId)?.path ?? '', { exact: true }).count()).resolves.toBe(1);
    // The answer lists the mapped URI under the folder's own name, not as an unknown path.
    const answer = page.getByRole('list', { name: 'Folders in the last answer' });
    await answer.getByText('/projects/mapped', { exact: true }).waitFor({ timeout: 60_000 });
    await expect(answer.locator('.facts__rootname').first().textContent()).resolves.toContain(path.basename(folder));

    await lookEverywhere(page, 'server-path-map', { sizes: SCREEN_SIZES, inView: () => mapped.scrollIntoViewIfNeeded() });
    expect(problems).toEqual([]);
  }, 240_000);
});
