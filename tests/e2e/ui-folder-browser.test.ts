// Picking folders in the browser UI, where no OS dialog exists: the host lists folders through the
// contract, the person walks and ticks them from the keyboard alone, hidden folders on request.
// Typed paths: `~` is the home folder, several pasted paths are several folders.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { axeViolations, describeViolations, lookEverywhere, SCREEN_SIZES, seriousOnly } from './ui-checks.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  vi.unstubAllEnvs();
  removeTempDirs();
});

function folders(...names: string[]): string {
  const dir = tempDir('mcp-roots-browse-');
  for (const name of names) fs.mkdirSync(path.join(dir, name), { recursive: true });
  return dir;
}

describe('picking folders in the browser', () => {
  it('walks, ticks and adds folders from the keyboard, showing hidden ones on request', async () => {
    session = await startUiSession();
    const { page, host } = session;
    const dir = folders('alpha', 'beta', 'gamma/child', '.secret');
    fs.writeFileSync(path.join(dir, 'file.txt'), 'not a folder');

    await page.getByRole('button', { name: 'Browse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose folders' });
    await dialog.waitFor();
    const field = dialog.getByLabel('Folder', { exact: true });
    await field.fill(dir);
    await field.press('Enter');
    const list = dialog.getByRole('listbox', { name: `Folders in ${dir}` });
    await list.getByRole('option', { name: 'alpha' }).waitFor();
    expect(await list.getByRole('option').allTextContents()).toEqual(['alpha', 'beta', 'gamma']);

    // Keyboard only from here: into the list, down to beta, tick it, open gamma, tick child, back up.
    await list.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    expect(await list.getByRole('option', { name: 'beta' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const inner = dialog.getByRole('listbox', { name: `Folders in ${path.join(dir, 'gamma')}` });
    await inner.getByRole('option', { name: 'child' }).waitFor();
    await page.keyboard.press('Space');
    await page.keyboard.press('Backspace');
    await list.getByRole('option', { name: 'alpha' }).waitFor();
    // Back where it came from: gamma is the active option.
    expect(await list.getAttribute('aria-activedescendant')).toBe(await list.getByRole('option', { name: 'gamma' }).getAttribute('id'));

    await dialog.getByLabel('Show hidden folders').check();
    await list.getByRole('option', { name: '.secret' }).waitFor();
    await dialog.getByText('Ticked: beta, child').waitFor();
    await screenshot(page, 'folder-browser');
    const serious = seriousOnly(await axeViolations(page));
    expect(serious, describeViolations(serious)).toEqual([]);

    await dialog.getByRole('button', { name: 'Add 2 ticked folders' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitFor(() => host.getState().roots.length === 2, { what: 'two folders' });
    expect(host.getState().roots.map((root) => root.path).sort()).toEqual([path.join(dir, 'beta'), path.join(dir, 'gamma', 'child')]);
  });

  it('shows the folders already added as such, and does not tick them', async () => {
    session = await startUiSession();
    const { page, host } = session;
    const dir = folders('alpha', 'beta');
    await host.addRoots([path.join(dir, 'alpha')]);
    // A first folder added takes the page on to Access (what to do next): back to Folders.
    await page.getByRole('tab', { name: /^Folders/ }).click();
    await page.getByRole('table', { name: 'Folders' }).getByText('alpha', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Browse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose folders' });
    const field = dialog.getByLabel('Folder', { exact: true });
    await field.fill(dir);
    await field.press('Enter');
    const list = dialog.getByRole('listbox', { name: `Folders in ${dir}` });
    const alpha = list.getByRole('option', { name: /^alpha/ });
    await alpha.waitFor();
    expect(await alpha.getAttribute('aria-disabled')).toBe('true');
    await alpha.getByText('added', { exact: true }).waitFor();
    // Neither a click nor Space ticks it; beta still ticks.
    // Forced: Playwright itself will not click what says it is disabled; a person's mouse can.
    await alpha.click({ force: true });
    await list.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    expect(await alpha.getAttribute('aria-selected')).toBe('false');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await dialog.getByText('Ticked: beta').waitFor();
    await dialog.getByRole('button', { name: 'Add 1 ticked folder' }).waitFor();
    await lookEverywhere(page, 'folder-browser-added', { sizes: SCREEN_SIZES });
    // Inside alpha, "Add “alpha”" would add it again: not offered.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await dialog.getByRole('listbox', { name: `Folders in ${path.join(dir, 'alpha')}` }).or(dialog.getByText('No folders here.')).waitFor();
    expect(await dialog.getByRole('button', { name: 'Add “alpha”' }).isDisabled()).toBe(true);
  });

  it('says why a folder cannot be listed', async () => {
    session = await startUiSession();
    const { page } = session;
    await page.getByRole('button', { name: 'Browse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose folders' });
    const field = dialog.getByLabel('Folder', { exact: true });
    await field.fill('/no/such/folder/anywhere');
    await field.press('Enter');
    await dialog.getByRole('alert').getByText('does not exist').waitFor();
  });

  it('expands ~ and takes several pasted paths, one per line', async () => {
    const home = folders('projects', 'notes', 'music');
    vi.stubEnv('HOME', home);
    session = await startUiSession();
    const { page, host } = session;
    const input = page.getByLabel('Add a folder');
    await input.fill('~/projects');
    await input.press('Enter');
    await page.getByText('Added 1 folder.').waitFor();
    expect(host.getState().roots.map((root) => root.path)).toEqual([path.join(home, 'projects')]);
    expect(await input.inputValue()).toBe('');

    await input.fill(`${path.join(home, 'notes')}\n~/music\n`);
    await input.press('Enter');
    await page.getByText('Added 2 folders.').waitFor();
    expect(host.getState().roots.map((root) => root.path).sort()).toEqual([path.join(home, 'music'), path.join(home, 'notes'), path.join(home, 'projects')]);
  });
});
