// 1,000 folders x 50 servers: the matrix renders only what is on screen and stays interactive.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';

const ROOTS = 1000;
const SERVERS = 50;
let session: UiSession;

beforeAll(async () => {
  session = await startUiSession({ viewport: { width: 1440, height: 900 } });
  const { host } = session;
  const work = tempDir('mcp-roots-scale-');
  const folders: string[] = [];
  for (let index = 0; index < ROOTS; index++) {
    const folder = path.join(work, `project-${String(index).padStart(4, '0')}`);
    fs.mkdirSync(folder);
    folders.push(folder);
  }
  const { added } = await host.addRoots(folders);
  expect(added).toHaveLength(ROOTS);
  // Disabled: the UI's cost is what is measured here, not 50 child processes.
  for (let index = 0; index < SERVERS; index++) {
    await host.addServer({ name: `server-${index + 1}`, transport: filesystemServer(), enabled: false, sharing: true });
  }
  // Every other folder granted to every server: 25,000 grants in the state.
  await host.setGrants(
    host.getState().servers.map((server) => server.id),
    added.filter((_, index) => index % 2 === 0).map((root) => root.id),
    true,
  );
  await waitFor(() => host.getState().roots.every((root) => root.access.state === 'ok'), { what: 'all probed', timeoutMs: 30_000 });
}, 120_000);

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

describe(`${ROOTS} folders x ${SERVERS} servers`, () => {
  it('renders a window of the matrix and stays interactive', async () => {
    const { page, host } = session;
    await page.reload();

    const opened = Date.now();
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.getByRole('checkbox', { name: 'Share project-0000 with server-1', exact: true }).waitFor();
    const openMs = Date.now() - opened;

    // Virtualized: a screenful of rows is in the DOM, not a thousand.
    const renderedRows = await page.locator('[role="grid"] [role="row"]').count();
    expect(renderedRows).toBeLessThan(60);
    expect(await page.getByRole('grid').getAttribute('aria-rowcount')).toBe(String(ROOTS + 2));

    // Scroll to the far end and toggle a cell there.
    const scrolled = Date.now();
    await page.locator('.matrix__scroll').evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    const last = page.getByRole('checkbox', { name: 'Share project-0999 with server-50', exact: true });
    await last.waitFor();
    const scrollMs = Date.now() - scrolled;

    const toggled = Date.now();
    await last.check();
    const toggleMs = Date.now() - toggled;
    await waitFor(() => host.getState().servers.at(-1)?.grantedRootIds.includes(host.getState().roots.at(-1)!.id), { what: 'the grant' });

    // Filtering 1,000 names is immediate too.
    const filtered = Date.now();
    await page.getByLabel('Filter folders').fill('project-0500');
    await page.getByRole('checkbox', { name: 'Share project-0500 with server-25', exact: true }).waitFor();
    const filterMs = Date.now() - filtered;
    await screenshot(page, 'scale-access-light');

    // Timings are the benchmark's job (npm run bench, section 8); here they are only reported.
    console.log(`scale: open ${openMs} ms, scroll ${scrollMs} ms, toggle ${toggleMs} ms, filter ${filterMs} ms`);
  });
});
