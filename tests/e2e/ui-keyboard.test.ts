// The main flow with the keyboard alone, in a real browser with a real server: skip link, add a
// folder, add a server, share the folder with it, and dialogs that give focus back to what opened
// them. No click and no fill here: only keys, and checks of where focus is.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FILESYSTEM_ENTRY, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { filesystemSees, waitConnected } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  removeTempDirs();
});

/** What has focus, as a person would name it: its label, its text, or its id. */
const focused = () =>
  session!.page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return '';
    const labelled = element.getAttribute('aria-label') ?? (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null);
    return (labelled ?? element.textContent ?? element.id).trim();
  });

async function tabTo(name: string | RegExp, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    const now = await focused();
    if (typeof name === 'string' ? now === name : name.test(now)) return;
    await session!.page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(name)}; last: ${await focused()}`);
}

describe('keyboard only', () => {
  it('adds a folder and a server and shares one with the other, focus always where expected', async () => {
    session = await startUiSession();
    const { page, host } = session;
    const folder = path.join(tempDir('mcp-roots-keys-'), 'Keyboard Project');
    fs.mkdirSync(folder);
    await page.getByRole('heading', { name: 'No folders yet' }).waitFor();

    // The first Tab stop is the skip link; Enter puts focus on the screen itself.
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');

    // Folders: into the field, type, Enter adds.
    await tabTo('Add a folder');
    await page.keyboard.type(folder);
    await page.keyboard.press('Enter');
    await page.getByText('Added 1 folder.').waitFor();
    expect(host.getState().roots.map((root) => root.path)).toEqual([folder]);

    // Servers: to the tabs with Shift+Tab, then arrows.
    await tabTo(/^Folders/);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toMatch(/^Servers/);
    await tabTo('Add server');
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'Add a server' });
    await form.waitFor();
    expect(await focused()).toBe('Name');
    await page.keyboard.type('filesystem');
    await tabTo('Command');
    await page.keyboard.type(process.execPath);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Arguments');
    await page.keyboard.type(FILESYSTEM_ENTRY);
    await tabTo('Add server');
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'detached' });
    const server = host.getState().servers[0]!;
    await waitConnected(host, server.id);
    // The empty state's button that opened it is gone with the empty state: focus goes to the
    // header's Add server, the same action, not to nowhere.
    await waitFor(async () => (await focused()) === 'Add server', { what: 'focus on Add server' });

    // Access: the grid is one Tab stop; Space shares the folder.
    await tabTo(/^Servers/, 60);
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('Access');
    await tabTo('Share Keyboard Project with filesystem', 60);
    await page.keyboard.press('Space');
    await waitFor(async () => (await filesystemSees(host, server.id)).includes(folder), { what: 'the server to see the folder' });

    // A confirmation opened from the keyboard: Escape cancels and focus returns to its opener.
    await tabTo(/^Access/, 60);
    await page.keyboard.press('ArrowLeft');
    await tabTo('Remove Keyboard Project', 60);
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog', { name: 'Remove “Keyboard Project”?' }).waitFor();
    expect(await focused()).toBe('Cancel');
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await waitFor(async () => (await focused()) === 'Remove Keyboard Project', { what: 'focus back on Remove' });

    // Confirmed, the row (and its button) is gone: focus goes to the screen, not to nowhere.
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await tabTo('Remove folder');
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await waitFor(() => host.getState().roots.length === 0, { what: 'the folder removed' });
    await waitFor(async () => (await page.evaluate(() => document.activeElement?.id)) === 'main-content', { what: 'focus on the screen' });
  });
});
