// The desktop window's minimum, 800 x 600: every screen and dialog still works there. Every server
// in the list can be reached and opened, the matrix shows rows and reaches its last column, and
// each dialog fits with its buttons on screen. Screenshots in light and dark to look at.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { cellName, lookEverywhere, waitConnected } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

const WIDTH = 800;
const HEIGHT = 600;
let session: UiSession;

/** The element's box lies entirely inside the window. */
async function onScreen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= WIDTH + 0.5 && box.y + box.height <= HEIGHT + 0.5;
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(WIDTH);
}

async function capture(name: string): Promise<void> {
  await lookEverywhere(session.page, `narrow-${name}`);
}

const SERVER_NAMES = ['everything', 'github', 'postgres', 'slack', 'puppeteer', 'memory', 'brave-search'];

beforeAll(async () => {
  session = await startUiSession({ viewport: { width: WIDTH, height: HEIGHT } });
  const { host } = session;
  const work = tempDir('mcp-roots-narrow-');
  const folders = ['website', 'notes', 'datasets', 'api', 'web-service', 'docs', 'infra', 'mobile', 'design', 'scripts'].map((name) => {
    const folder = path.join(work, name);
    fs.mkdirSync(folder);
    return folder;
  });
  await host.addRoots(folders);
  const everything = await host.addServer({ name: 'everything', transport: everythingServer(), enabled: true, sharing: true });
  // The rest disabled: seven entries in the list without seven processes.
  for (const name of SERVER_NAMES.slice(1)) {
    await host.addServer({ name, transport: { type: 'stdio', command: 'npx', args: ['-y', `@modelcontextprotocol/server-${name}`], env: {} }, enabled: false, sharing: true });
  }
  await waitConnected(host, everything.id);
  await waitFor(() => host.getState().roots.every((root) => root.access.state === 'ok'), { what: 'folders probed' });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

describe(`at ${WIDTH} x ${HEIGHT}`, () => {
  it('reaches and opens every server in the list, beside its detail', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    const list = page.getByRole('navigation', { name: 'Servers' });
    for (const name of SERVER_NAMES) {
      const item = list.getByRole('button', { name: new RegExp(`^${name}\\b`) });
      await item.scrollIntoViewIfNeeded();
      expect(await onScreen(item), `${name} in the list`).toBe(true);
      await item.click();
      const title = page.getByRole('heading', { name, level: 2 });
      await title.waitFor();
      expect(await onScreen(title), `${name}'s detail`).toBe(true);
      // The list and the detail sit side by side, never one under the other.
      const listBox = await list.boundingBox();
      const detailBox = await page.locator('.server-detail').boundingBox();
      expect(listBox && detailBox && listBox.x + listBox.width <= detailBox.x).toBe(true);
    }
    await noSidewaysScroll(page);
    await capture('servers');
  });

  it('shows the matrix with several rows and reaches its last column', async () => {
    const { page, host } = session;
    await page.getByRole('tab', { name: 'Access' }).click();
    const grid = page.getByRole('grid');
    await grid.waitFor();
    const rowsOnScreen = await page.locator('[role="grid"] [role="row"]').evaluateAll(
      (rows, height) => rows.filter((row) => row.getBoundingClientRect().bottom <= height && row.getBoundingClientRect().top >= 0).length,
      HEIGHT,
    );
    // Two header rows and at least four folders.
    expect(rowsOnScreen).toBeGreaterThanOrEqual(6);
    const last = page.getByRole('checkbox', { name: cellName('scripts', 'brave-search') });
    await last.scrollIntoViewIfNeeded();
    await last.check();
    const braveSearch = host.getState().servers.find((server) => server.name === 'brave-search')!;
    await waitFor(() => host.getState().servers.find((server) => server.id === braveSearch.id)?.grantedRootIds.length === 1, { what: 'the grant' });
    await noSidewaysScroll(page);
    await capture('access');
  });

  it('shows several folders on the Folders screen', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Folders/ }).click();
    const rows = page.getByRole('table', { name: 'Folders' }).getByRole('row');
    await rows.nth(1).waitFor();
    const onScreenRows = await rows.evaluateAll(
      (all, height) => all.filter((row) => row.getBoundingClientRect().bottom <= height && row.getBoundingClientRect().top >= 0).length,
      HEIGHT,
    );
    // The header and at least three folders.
    expect(onScreenRows).toBeGreaterThanOrEqual(4);
    await noSidewaysScroll(page);
    await capture('folders');
  });

  it('fits every dialog with its buttons on screen', async () => {
    const { page } = session;
    const dialogs: { name: string; open(): Promise<void>; dialog: Locator; button: string }[] = [
      {
        name: 'add-server',
        open: async () => {
          await page.getByRole('tab', { name: /Servers/ }).click();
          await page.getByRole('button', { name: 'Add server' }).click();
        },
        dialog: page.getByRole('dialog', { name: 'Add a server' }),
        button: 'Add server',
      },
      {
        name: 'use-with',
        open: () => page.locator('.server-detail').getByRole('button', { name: 'Use with…' }).click(),
        dialog: page.getByRole('dialog', { name: 'Use servers with another app' }),
        button: 'Preview',
      },
      {
        name: 'import',
        open: () => page.getByRole('button', { name: 'Import…' }).click(),
        dialog: page.getByRole('dialog', { name: 'Import servers from other apps' }),
        button: 'Look for servers',
      },
      {
        name: 'remove-folder',
        open: async () => {
          await page.getByRole('tab', { name: /Folders/ }).click();
          await page.getByRole('button', { name: 'Remove website' }).click();
        },
        dialog: page.getByRole('alertdialog', { name: 'Remove “website”?' }),
        button: 'Remove folder',
      },
    ];
    for (const { name, open, dialog, button } of dialogs) {
      await open();
      await dialog.waitFor();
      expect(await onScreen(dialog), `${name} fits`).toBe(true);
      expect(await onScreen(dialog.getByRole('button', { name: button, exact: true })), `${name}: ${button} on screen`).toBe(true);
      await capture(`dialog-${name}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
  });
});
