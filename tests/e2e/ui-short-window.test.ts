// Every screen works at 800 x 600 with every banner showing (issue 23, item 10): a folder request and
// the keychain notice each take one line, the page scrolls, and the matrix, the Folders table and the
// server detail each keep room for their work. Before, the matrix got 178 px (1 of 3 rows).
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeSecretCodec } from '../support/fake-secret-codec.js';
import { everythingServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { cellName, lookEverywhere, waitConnected } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

const WIDTH = 800;
const HEIGHT = 600;
const SIZE = [{ width: WIDTH, height: HEIGHT }];
let session: UiSession;

beforeAll(async () => {
  session = await startUiSession({
    viewport: { width: WIDTH, height: HEIGHT },
    secrets: fakeSecretCodec({ available: false, unavailableReason: 'org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files' }),
  });
  const { host } = session;
  const work = tempDir('mcp-roots-short-');
  const folders = ['website', 'notes', 'private'].map((name) => path.join(work, name));
  for (const folder of folders) fs.mkdirSync(folder);
  await host.addRoots(folders);
  // It asks for folders and has none: the consent banner.
  const everything = await host.addServer({ name: 'everything', transport: everythingServer(), enabled: true, sharing: true });
  // A secret with no keychain: the keychain notice.
  await host.addServer({ name: 'github', transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_example' } }, enabled: false, sharing: true });
  await waitConnected(host, everything.id);
  await waitFor(() => host.getState().consentRequests.length === 1 && host.getState().notices.length === 1, { what: 'the consent request and the keychain notice', timeoutMs: 15_000 });
  await waitFor(() => host.getState().roots.every((root) => root.access.state === 'ok'), { what: 'folders probed' });
});

// lookEverywhere leaves the window at 1280 x 800: each test starts at the size it is about.
beforeEach(async () => {
  await session.page.setViewportSize({ width: WIDTH, height: HEIGHT });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

async function height(locator: Locator): Promise<number> {
  return (await locator.boundingBox())!.height;
}

/** The page may scroll down, never sideways. */
async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
}

/** Rows of `rows` wholly inside the window, below its header, once `scroller` is scrolled into view. */
async function rowsInView(page: Page, scroller: Locator, rows: Locator): Promise<number> {
  await scroller.evaluate((element) => element.scrollIntoView({ block: 'end' }));
  const top = await page.evaluate(() => document.querySelector('.app__header')!.getBoundingClientRect().bottom);
  return rows.evaluateAll((all, [from, to]) => all.filter((row) => row.getBoundingClientRect().top >= from! && row.getBoundingClientRect().bottom <= to!).length, [top, HEIGHT]);
}

const toTop = (page: Page) => page.evaluate(() => window.scrollTo(0, 0));

describe('800 x 600 with every banner', () => {
  it('shows each banner on one line', async () => {
    const { page } = session;
    const consent = page.getByTestId('consent-summary');
    const notice = page.getByRole('list', { name: 'Notices' }).getByRole('listitem');
    await consent.waitFor();
    await notice.waitFor();
    // One line of text plus the banner's padding (and its buttons' height).
    expect(await height(consent)).toBeLessThanOrEqual(56);
    expect(await height(notice)).toBeLessThanOrEqual(56);
    // What was folded away is one click from it.
    await consent.getByRole('button', { name: 'More' }).click();
    await consent.getByRole('button', { name: 'Don’t ask again' }).waitFor();
    await consent.getByRole('button', { name: 'Less' }).click();
    await consent.getByRole('button', { name: 'Don’t ask again' }).waitFor({ state: 'hidden' });
  });

  it('lets the matrix show every folder row, and every legend entry', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: 'Access' }).click();
    const scroller = page.locator('.matrix__scroll');
    const bodyRows = page.locator('[role="grid"] [role="row"][aria-rowindex]:not([aria-rowindex="1"]):not([aria-rowindex="2"])');
    await page.getByRole('checkbox', { name: cellName('private', 'everything') }).waitFor();
    expect(await rowsInView(page, scroller, bodyRows)).toBe(3);
    const legend = page.getByRole('list', { name: 'Legend' });
    await legend.getByText('read-only (R changes it)').waitFor();
    expect(await legend.getByText('read-only (R changes it)').isVisible()).toBe(true);
    await noSidewaysScroll(page);
    await lookEverywhere(page, 'short-window-access', { sizes: SIZE, inView: () => toTop(page) });
    await lookEverywhere(page, 'short-window-access-scrolled', { sizes: SIZE, noAxe: true, inView: () => scroller.evaluate((element) => element.scrollIntoView({ block: 'end' })) });
  });

  it('lets the Folders table show every folder without scrolling sideways', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Folders/ }).click();
    const scroller = page.locator('.roots-table__scroll');
    const rows = page.getByRole('table', { name: 'Folders' }).getByRole('row');
    await rows.nth(3).waitFor();
    expect(await rowsInView(page, scroller, rows)).toBe(4);
    expect(await scroller.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await noSidewaysScroll(page);
    await lookEverywhere(page, 'short-window-folders', { sizes: SIZE, inView: () => scroller.evaluate((element) => element.scrollIntoView({ block: 'end' })) });
  });

  it('gives the server detail the window’s height', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /^everything\b/ }).click();
    const detail = page.locator('.server-detail');
    await detail.getByRole('heading', { name: 'everything', level: 2 }).waitFor();
    await detail.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    // Below the sticky header, the detail has the rest of the window.
    expect(await height(detail)).toBeGreaterThanOrEqual(HEIGHT - 56 - 48);
    await noSidewaysScroll(page);
    await lookEverywhere(page, 'short-window-servers', { sizes: SIZE, inView: () => detail.evaluate((element) => element.scrollIntoView({ block: 'end' })) });
  });

  // Last: it adds a second request, which turns the lone request's banner into the summary of two.
  it('folds the summary of several requests to one line too', async () => {
    const { page, host } = session;
    const second = await host.addServer({ name: 'notes', transport: everythingServer(), enabled: true, sharing: true });
    await waitConnected(host, second.id);
    const consent = page.getByTestId('consent-summary');
    await consent.getByText('2 servers asked for folders').waitFor();
    await toTop(page);
    expect(await height(consent)).toBeLessThanOrEqual(56);
    await consent.getByText('everything, notes').waitFor();
    await consent.getByRole('button', { name: 'Review' }).click();
    await consent.getByRole('group', { name: 'Folder request from notes' }).waitFor();
    await lookEverywhere(page, 'short-window-two-requests', { sizes: SIZE, inView: () => toTop(page) });
  });
});
