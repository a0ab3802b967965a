// Dialogs do what they look like they do (#30 item 11): an empty Arguments box looks empty before a
// split, "Use with…" ticks a server only where the person picked one, the folder browser's button
// names the folder it adds, and the "Use with…" preview scrolls inside its body, not the dialog.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession;

beforeAll(async () => {
  session = await startUiSession({ viewport: { width: 1280, height: 800 } });
  for (const name of ['filesystem', 'memory']) {
    await session.host.addServer({ name, transport: { type: 'stdio', command: 'npx', args: ['-y', `@modelcontextprotocol/server-${name}`], env: {} }, enabled: false, sharing: true });
  }
});

// One session for all: a test that fails with its dialog open does not leave it in the next one's way.
afterEach(async () => {
  while (await session.page.locator('dialog[open]').count()) await session.page.keyboard.press('Escape');
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

describe('dialogs that say what they will do', () => {
  it('leaves the Arguments box looking empty while a command line waits to be split', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('button', { name: 'Add server' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a server' });
    await dialog.getByLabel('Command', { exact: true }).fill('npx -y @modelcontextprotocol/server-filesystem /tmp/notes');
    await dialog.getByRole('button', { name: 'Split into command and arguments' }).waitFor();
    const args = dialog.getByLabel('Arguments', { exact: true });
    expect(await args.inputValue()).toBe('');
    // No grey words in it: they read as the split already made.
    expect(await args.evaluate((element) => (element as HTMLTextAreaElement).placeholder)).toBe('');
    await lookEverywhere(page, 'dialog-args-before-split', { sizes: SCREEN_SIZES, inView: () => args.scrollIntoViewIfNeeded() });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('ticks no server from the header’s Use with…, and the shown one from its detail', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /^memory\b/ }).click();
    await page.getByRole('heading', { name: 'memory', level: 2 }).waitFor();
    const dialog = page.getByRole('dialog', { name: 'Use servers with another app' });

    await page.locator('.servers-panel__actions').getByRole('button', { name: 'Use with…' }).click();
    await dialog.waitFor();
    expect(await dialog.getByRole('checkbox').evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked))).toEqual([false, false]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.locator('.server-detail').getByRole('button', { name: 'Use with…' }).click();
    await dialog.waitFor();
    expect(await dialog.getByRole('checkbox', { name: /^memory/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole('checkbox', { name: /^filesystem/ }).isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('scrolls the Use with… preview inside its body, never the dialog itself', async () => {
    const { page } = session;
    const target = path.join(tempDir('mcp-roots-use-with-'), 'claude_desktop_config.json');
    fs.writeFileSync(target, `${JSON.stringify({ mcpServers: { other: { command: 'npx', args: ['-y', 'other'] } } }, null, 2)}\n`);
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.locator('.server-detail').getByRole('button', { name: 'Use with…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Use servers with another app' });
    await dialog.getByRole('radio', { name: 'Another file' }).check();
    await dialog.getByLabel('Config file', { exact: true }).fill(target);
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByRole('heading', { name: 'What will be written' }).waitFor();
    // The dialog itself never scrolls, only its body: absolutely placed parts of the body (the
    // host choice's radios, the diff's hidden words) once reached past it, and the dialog drew a
    // scrollbar of its own, a light strip at its top-right.
    const body = dialog.locator('.dialog__body');
    for (const end of ['top', 'bottom'] as const) {
      await body.evaluate((element, to) => element.scrollTo({ top: to === 'top' ? 0 : element.scrollHeight }), end);
      const overflow = await dialog.evaluate((element) => ({ down: element.scrollHeight - element.clientHeight, across: element.scrollWidth - element.clientWidth }));
      expect(overflow, `the dialog's own overflow, its body scrolled to the ${end}`).toEqual({ down: 0, across: 0 });
    }
    // Scrolled, the body's content met the dialog's words edge to edge (a walk saw it in dark mode):
    // the words keep a space below them, and a line marks where the scrolled body starts.
    await body.evaluate((element) => element.scrollTo({ top: 40 }));
    const edge = await dialog.evaluate((element) => {
      const words = element.querySelector('.dialog__description')!;
      const range = document.createRange();
      range.selectNodeContents(words);
      const body = element.querySelector('.dialog__body')!;
      return { gap: body.getBoundingClientRect().top - range.getBoundingClientRect().bottom, layers: getComputedStyle(body).backgroundImage.split('linear-gradient').length - 1 };
    });
    expect(edge.gap, 'space between the words and the scrolled body').toBeGreaterThanOrEqual(6);
    expect(edge.layers, 'the line that shows once the body is scrolled').toBe(2);
    await lookEverywhere(page, 'dialog-use-with-preview', { sizes: SCREEN_SIZES, inView: () => dialog.getByRole('heading', { name: 'What will be written' }).scrollIntoViewIfNeeded() });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('names the folder “Add” would add, apart from the highlighted row', async () => {
    const { page, host } = session;
    const dir = tempDir('mcp-roots-browse-here-');
    for (const name of ['alpha', 'beta']) fs.mkdirSync(path.join(dir, 'projects', name), { recursive: true });
    const projects = path.join(dir, 'projects');
    await page.getByRole('tab', { name: /Folders/ }).click();
    await page.getByRole('button', { name: 'Browse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose folders' });
    const field = dialog.getByLabel('Folder', { exact: true });
    await field.fill(projects);
    await field.press('Enter');
    const list = dialog.getByRole('listbox', { name: `Folders in ${projects}` });
    await list.getByRole('option', { name: 'beta' }).waitFor();
    await list.focus();
    await page.keyboard.press('ArrowDown');
    // beta is highlighted; the button still says which folder it adds, and it is the one listed.
    const add = dialog.getByRole('button', { name: 'Add “projects”' });
    expect(await add.getAttribute('title')).toBe(projects);
    await lookEverywhere(page, 'dialog-browse-add-here', { sizes: SCREEN_SIZES });
    await add.click();
    await dialog.waitFor({ state: 'detached' });
    await waitFor(() => host.getState().roots.length === 1, { what: 'the folder' });
    expect(host.getState().roots.map((root) => root.path)).toEqual([projects]);
  });
});
