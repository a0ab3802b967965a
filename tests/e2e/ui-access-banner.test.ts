// The Access grid in the desktop window's minimum, 800 x 600, with the keychain banner open (#30 item
// 10): the banner keeps its raw detail folded, the grid shows at least six folders on first sight and
// reaches every server column, scrolling them sideways under folder names that stay put. At 1280 px a
// long server name is not cut while the row has room for it.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeSecretCodec } from '../support/fake-secret-codec.js';
import { removeTempDirs, tempDir } from '../support/index.js';
import { lookEverywhere } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

const WIDTH = 800;
const HEIGHT = 600;
const DBUS = 'org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files';
const FOLDERS = ['website', 'notes', 'datasets', 'api', 'web-service', 'docs', 'infra', 'mobile'];
// The sixth is the one the walk saw cut ("everythin…"); the longest must fit its header at 1280 px.
const SERVERS = ['github', 'postgres', 'slack', 'puppeteer', 'memory', 'everything-with-a-long-name'];
let session: UiSession;

beforeAll(async () => {
  session = await startUiSession({ viewport: { width: WIDTH, height: HEIGHT }, secrets: fakeSecretCodec({ available: false, unavailableReason: DBUS }) });
  const { host } = session;
  const work = tempDir('mcp-roots-access-banner-');
  await host.addRoots(
    FOLDERS.map((name) => {
      const folder = path.join(work, name);
      fs.mkdirSync(folder);
      return folder;
    }),
  );
  // Not started: the grid's layout is the subject, and six disabled servers cost no processes. The
  // secret makes the host say it has no keychain to seal it with.
  for (const name of SERVERS) {
    await host.addServer({ name, transport: { type: 'stdio', command: 'npx', args: ['-y', `@modelcontextprotocol/server-${name}`], env: { API_TOKEN: 'example' } }, enabled: false, sharing: true });
  }
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

/** How many folder rows lie wholly inside both the window and the grid's scroller. */
async function folderRowsInView(page: Page): Promise<number> {
  return page.locator('.matrix__scroll').evaluate((scroller, height) => {
    const frame = scroller.getBoundingClientRect();
    const head = scroller.querySelector('.matrix__head')!.getBoundingClientRect();
    return [...scroller.querySelectorAll('[role="rowgroup"]:not(.matrix__head) > [role="row"]')].filter((row) => {
      const box = row.getBoundingClientRect();
      return box.top >= Math.max(0, head.bottom) - 0.5 && box.bottom <= Math.min(height, frame.bottom) + 0.5;
    }).length;
  }, HEIGHT);
}

describe('the Access grid at 800 x 600 with the keychain banner', () => {
  it('folds the raw detail and shows six folders and every server column', async () => {
    const { page } = session;
    const notice = page.getByRole('list', { name: 'Notices' }).getByRole('listitem');
    await notice.getByText(/No system keychain is available/).waitFor();
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.getByRole('grid').waitFor();

    // The banner: one line with its next step, the D-Bus text behind Details, far from a quarter.
    const banner = (await notice.boundingBox())!;
    expect(banner.height, 'banner height').toBeLessThanOrEqual(HEIGHT / 12);
    expect(await notice.getByText(DBUS).isVisible()).toBe(false);

    // At least six folders on first sight, without scrolling the page.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await folderRowsInView(page), 'folder rows in view').toBeGreaterThanOrEqual(6);

    // Every server column is reached by scrolling the grid sideways, and the folder names stay put.
    const scroller = page.locator('.matrix__scroll');
    const frame = (await scroller.boundingBox())!;
    const firstName = page.getByRole('rowheader').first();
    const before = (await firstName.boundingBox())!;
    await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await scroller.evaluate((element) => element.scrollLeft), 'the columns scroll').toBeGreaterThan(0);
    const after = (await firstName.boundingBox())!;
    expect(after.x, 'the folder name is sticky').toBe(before.x);
    const nameCell = await firstName.evaluate((element) => element.getBoundingClientRect().right);
    for (const name of SERVERS) {
      const header = page.getByRole('columnheader').filter({ has: page.getByRole('checkbox', { name: `Select server ${name}` }) });
      await header.scrollIntoViewIfNeeded();
      const box = (await header.boundingBox())!;
      expect(box.x, `${name}'s column clear of the folder names`).toBeGreaterThanOrEqual(nameCell - 0.5);
      expect(box.x + box.width, `${name}'s column inside the grid`).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
    }
    await scroller.evaluate((element) => element.scrollTo({ left: 0 }));
    await lookEverywhere(page, 'access-banner', { sizes: [{ width: WIDTH, height: HEIGHT }] });
    await lookEverywhere(page, 'access-banner-scrolled', { sizes: [{ width: WIDTH, height: HEIGHT }], noAxe: true, inView: () => scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth })) });
  });

  it('does not cut a long server name at 1280 px while the row has room', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('tab', { name: 'Access' }).click();
    const name = page.locator('.matrix__servername', { hasText: 'everything-with-a-long-name' });
    await name.waitFor();
    expect(await name.getAttribute('title')).toBe('everything-with-a-long-name');
    const cut = await name.evaluate((element) => element.scrollHeight > element.clientHeight + 0.5 || element.scrollWidth > element.clientWidth + 0.5);
    expect(cut, 'the long name is cut').toBe(false);
    await lookEverywhere(page, 'access-banner', { sizes: [{ width: 1280, height: 800 }] });
  });
});
