// What the desktop window's minimum, 800 x 600, used to hide (#30 item 9): the Language and Theme
// labels (two identical "System" selects were left), the hint that explains the round marks, and
// the folder browser's "Ticked: …" line. Each is on screen there now, without scrolling for it.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

const WIDTH = 800;
const HEIGHT = 600;
let session: UiSession;
let work: string;

beforeAll(async () => {
  session = await startUiSession({ viewport: { width: WIDTH, height: HEIGHT } });
  work = tempDir('mcp-roots-narrow-words-');
  for (const name of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa']) fs.mkdirSync(path.join(work, name));
  await session.host.addRoots([path.join(work, 'alpha')]);
  await session.host.addServer({ name: 'memory', transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: {} }, enabled: false, sharing: true });
});

// One session for all: a test that fails with its dialog open does not leave it in the next one's
// way, and each starts at 800 x 600 (lookEverywhere leaves the window at 1280 x 800).
afterEach(async () => {
  await session.page.setViewportSize({ width: WIDTH, height: HEIGHT });
  while (await session.page.locator('dialog[open]').count()) await session.page.keyboard.press('Escape');
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

/** Drawn, with room for its words, and wholly inside the window (and inside `within`, when given). */
async function readable(locator: Locator, within?: Locator): Promise<boolean> {
  if (!(await locator.isVisible())) return false;
  const box = await locator.boundingBox();
  const frame = within ? await within.boundingBox() : { x: 0, y: 0, width: WIDTH, height: HEIGHT };
  if (!box || !frame || box.width < 8 || box.height < 8) return false;
  const inside = (outer: { x: number; y: number; width: number; height: number }) =>
    box.x >= outer.x - 0.5 && box.y >= outer.y - 0.5 && box.x + box.width <= outer.x + outer.width + 0.5 && box.y + box.height <= outer.y + outer.height + 0.5;
  return inside(frame) && inside({ x: 0, y: 0, width: WIDTH, height: HEIGHT });
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
}

describe(`at ${WIDTH} x ${HEIGHT}`, () => {
  it('labels the Language and Theme selects in words', async () => {
    const { page } = session;
    const header = page.locator('.app__header');
    for (const name of ['Language', 'Theme']) {
      const select = page.getByRole('combobox', { name, exact: true });
      expect(await select.inputValue()).toBe('system');
      // The label's words themselves, not only its icon or a screen reader's name.
      const words = header.locator('label').filter({ has: page.getByText(name, { exact: true }) }).getByText(name, { exact: true });
      expect(await readable(words), `${name} shown`).toBe(true);
    }
    await noSidewaysScroll(page);
    await lookEverywhere(page, 'narrow-words-header', { sizes: SCREEN_SIZES });
  });

  it('explains the round marks above the Access grid', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.getByRole('grid').waitFor();
    const hint = page.getByText('Pick rows or columns by their round marks to share or stop sharing many at once.');
    expect(await readable(hint), 'the round-mark hint shown').toBe(true);
    await noSidewaysScroll(page);
    await lookEverywhere(page, 'narrow-words-access', { sizes: SCREEN_SIZES });
  });

  it('shows the folder browser’s ticked folders without scrolling for them', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Folders/ }).click();
    await page.getByRole('button', { name: 'Browse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose folders' });
    const field = dialog.getByLabel('Folder', { exact: true });
    await field.fill(work);
    await field.press('Enter');
    const list = dialog.getByRole('listbox', { name: `Folders in ${work}` });
    await list.getByRole('option', { name: 'beta' }).click();
    await list.getByRole('option', { name: 'delta' }).click();
    const ticked = dialog.getByText('Ticked: beta, delta');
    await ticked.waitFor();
    expect(await readable(ticked, dialog.locator('.dialog__body')), 'the ticked line in the dialog’s view').toBe(true);
    // The list keeps a few rows in view beside it.
    const rows = await list.getByRole('option').evaluateAll((options, listBottom) => options.filter((option) => option.getBoundingClientRect().bottom <= listBottom).length, (await list.boundingBox())!.y + (await list.boundingBox())!.height);
    expect(rows, 'folder rows in view').toBeGreaterThanOrEqual(3);
    await lookEverywhere(page, 'narrow-words-browse', { sizes: SCREEN_SIZES });
  });
});
