// The browser UI end to end: real Chromium, the real headless server, a real RootsHost and real MCP
// servers. What a server itself reports (its own tools) is the truth we check against.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { everythingServer, FILESYSTEM_ENTRY, filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';
import { everythingSees, filesystemSees, lookEverywhere, SCREEN_SIZES, waitConnected } from './ui-checks.js';

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  removeTempDirs();
});

const serverId = (s: UiSession, name: string) => {
  const found = s.host.getState().servers.find((server) => server.name === name);
  if (!found) throw new Error(`no server named ${name}`);
  return found.id;
};

describe('browser UI', () => {
  it('shows where each secret of a server is kept, URL credentials included, and never the secret', async () => {
    session = await startUiSession();
    const { page, host } = session;
    await host.addServer({
      name: 'remote',
      transport: { type: 'http', url: 'http://alice:pw-never-shown@127.0.0.1:9/mcp?api_key=key-never-shown', headers: { 'X-Token': 'hdr-never-shown' } },
      enabled: false,
      sharing: true,
    });
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /remote/ }).click();
    const secrets = page.getByTestId('secret-storage');
    // This host has no keychain (no codec given): every secret is said to be in clear.
    for (const name of ['X-Token', 'password', 'api_key']) {
      await secrets.getByRole('listitem').filter({ hasText: name }).getByText('Stored unencrypted: no OS keychain available to this process').waitFor();
    }
    expect(await page.content()).not.toMatch(/never-shown/);
    await lookEverywhere(page, 'server-secrets', { sizes: SCREEN_SIZES, inView: () => secrets.scrollIntoViewIfNeeded() });
  });

  it('trades the token for an HttpOnly, SameSite=Strict cookie: none left in the address bar or storage, and a reload stays signed in', async () => {
    session = await startUiSession();
    const { page, context, serve, host } = session;
    await page.getByRole('heading', { name: 'No folders yet' }).waitFor();
    const cookie = await waitFor(async () => (await context.cookies()).find((c) => c.name === `mcp-roots-session-${serve.port}`), {
      what: 'the session cookie',
    });
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api' });
    expect(cookie.value).not.toBe(serve.token);
    expect(page.url()).not.toContain(serve.token);
    const visible = await page.evaluate(() => JSON.stringify([{ ...sessionStorage }, { ...localStorage }, document.cookie, location.href]));
    expect(visible).not.toContain(serve.token);
    expect(visible).not.toContain(cookie.value);

    // A reload carries no token at all: the cookie alone connects, and state keeps arriving.
    await page.reload();
    // Connected again (the empty screen is drawn from the socket's first snapshot) before the change,
    // so the row proves a later change arrives; and the first screen stays Folders (with a folder
    // already there, the app would open on Access).
    await page.getByRole('heading', { name: 'No folders yet' }).waitFor();
    const folder = tempDir('mcp-roots-ui-cookie-');
    await host.addRoots([folder]);
    await page.getByRole('row', { name: new RegExp(path.basename(folder)) }).waitFor();
  });

  it('adds a folder, grants it to one server only, revokes it, and follows it going missing', async () => {
    session = await startUiSession();
    const { page, host } = session;
    const work = tempDir('mcp-roots-ui-work-');
    const project = path.join(work, 'Project Alpha');
    fs.mkdirSync(project);
    const projectUri = pathToFileURL(project).href;

    // The empty Folders screen teaches what a root is.
    await page.getByRole('heading', { name: 'No folders yet' }).waitFor();

    await page.getByLabel('Add a folder').fill(project);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const row = page.getByRole('row', { name: /Project Alpha/ });
    await row.getByText('Reachable').waitFor();
    await page.getByText('Added 1 folder.').waitFor();

    // A path that is not absolute is refused beside the field, with the host's reason.
    await page.getByLabel('Add a folder').fill('relative/path');
    await page.getByRole('button', { name: 'Add folder' }).click();
    await page.getByRole('list', { name: 'Folders that could not be added' }).getByText('relative/path', { exact: true }).waitFor();

    // filesystem is added through the form; everything through the API.
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('heading', { name: 'No servers yet' }).waitFor();
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    await form.getByLabel('Name', { exact: true }).fill('filesystem');
    await form.getByLabel('Command', { exact: true }).fill(process.execPath);
    await form.getByLabel('Arguments').fill(FILESYSTEM_ENTRY);
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.waitFor({ state: 'detached' });
    await host.addServer({ name: 'everything', transport: everythingServer(), enabled: true, sharing: true });
    const fsId = serverId(session, 'filesystem');
    const everythingId = serverId(session, 'everything');
    await waitConnected(host, fsId);
    await waitConnected(host, everythingId);
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /filesystem/ }).getByText('Connected').waitFor();

    // Grant one cell in the matrix: filesystem sees the folder, everything does not.
    await page.getByRole('tab', { name: 'Access' }).click();
    const fsCell = page.getByRole('checkbox', { name: 'Share Project Alpha with filesystem' });
    const everythingCell = page.getByRole('checkbox', { name: 'Share Project Alpha with everything' });
    await fsCell.check();
    await waitFor(async () => (await filesystemSees(host, fsId)).includes(project), { what: 'filesystem to see the folder' });
    expect(await everythingSees(host, everythingId)).toEqual([]);
    expect(await everythingCell.isChecked()).toBe(false);

    // The server's own card says what it was answered.
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /filesystem/ }).click();
    // The answer by name and decoded path (the URI itself stays in the tooltip).
    await page.getByTestId('last-roots-request').getByText(project, { exact: true }).waitFor();
    await page.getByRole('list', { name: 'Activity' }).getByText('Roots request').first().waitFor();

    // Revoke: filesystem's view is emptied again (the host restarts it to make it forget).
    await page.getByRole('tab', { name: 'Access' }).click();
    await fsCell.uncheck();
    await waitFor(async () => (await filesystemSees(host, fsId)).length === 0, { what: 'filesystem to see nothing', timeoutMs: 20_000 });

    // Grant to everything, then delete the folder on disk: the badge turns Missing, everything
    // stops seeing it, and the grant is kept (drawn hollow) for when the folder returns.
    await everythingCell.check();
    await waitFor(async () => (await everythingSees(host, everythingId)).includes(projectUri), { what: 'everything to see the folder' });
    fs.rmSync(project, { recursive: true });
    await page.getByRole('row', { name: /Project Alpha/ }).getByText('Missing').waitFor({ timeout: 5000 });
    await waitFor(async () => !(await everythingSees(host, everythingId)).includes(projectUri), { what: 'everything to lose the folder' });
    expect(await everythingCell.isChecked()).toBe(true);
    expect(await everythingCell.getAttribute('title')).toContain('hidden while the folder is');

    await page.getByRole('tab', { name: /Folders/ }).click();
    const missingRow = page.getByRole('row', { name: /Project Alpha/ });
    await missingRow.getByText('Missing').waitFor();
    // The Folders tab names the servers it is hidden from (one or two by name).
    await missingRow.getByText('hidden from everything now').waitFor();
  });

  it('answers a consent prompt by granting chosen folders, and dismisses another', async () => {
    session = await startUiSession();
    const { page, host } = session;
    const work = tempDir('mcp-roots-ui-work-');
    const docs = path.join(work, 'Docs');
    const code = path.join(work, 'Code');
    fs.mkdirSync(docs);
    fs.mkdirSync(code);
    await host.addRoots([docs, code]);

    const everything = await host.addServer({ name: 'everything', transport: everythingServer(), enabled: true, sharing: true });
    await waitConnected(host, everything.id);
    const banner = page.getByRole('group', { name: 'Folder request from everything' });
    await banner.waitFor({ timeout: 10_000 });

    await banner.getByRole('button', { name: 'Choose folders…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share folders with everything' });
    await dialog.getByRole('checkbox', { name: /Docs/ }).check();
    await dialog.getByRole('button', { name: 'Share 1 folder' }).click();
    await dialog.waitFor({ state: 'detached' });
    await banner.waitFor({ state: 'detached' });
    await waitFor(async () => (await everythingSees(host, everything.id)).includes(pathToFileURL(docs).href), {
      what: 'everything to see Docs',
    });
    expect(await everythingSees(host, everything.id)).not.toContain(pathToFileURL(code).href);

    const filesystem = await host.addServer({ name: 'filesystem', transport: filesystemServer(), enabled: true, sharing: true });
    await waitConnected(host, filesystem.id);
    const fsBanner = page.getByRole('group', { name: 'Folder request from filesystem' });
    await fsBanner.getByRole('button', { name: 'Not now' }).click();
    await fsBanner.waitFor({ state: 'detached' });
    expect(host.getState().consentRequests).toEqual([]);
    expect(await filesystemSees(host, filesystem.id)).toEqual([]);
  });

  it('switches language to Simplified Chinese and German and back to the system language', async () => {
    session = await startUiSession();
    const { page, host } = session;

    await page.getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('tab', { name: '文件夹' }).waitFor();
    await page.getByRole('heading', { name: '还没有文件夹' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(host.getState().settings.locale).toBe('zh-CN');
    await screenshot(page, 'language-zh-CN');

    await page.getByLabel('语言').selectOption('de');
    await page.getByRole('tab', { name: 'Ordner' }).waitFor();
    await page.getByRole('heading', { name: 'Noch keine Ordner' }).waitFor();
    await page.getByRole('tab', { name: 'Server' }).click();
    await page.getByRole('heading', { name: 'Noch keine Server' }).waitFor();
    await screenshot(page, 'language-de');

    await page.getByLabel('Sprache').selectOption('system');
    await page.getByRole('tab', { name: 'Servers' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });

  it('shows a store notice until dismissed, and lets the theme override the OS', async () => {
    session = await startUiSession();
    const { page, host } = session;

    // An outside edit that is not valid JSON is ignored by the host, which says so.
    fs.writeFileSync(host.store.path, '{ "this is": not json');
    const notices = page.getByRole('list', { name: 'Notices' });
    // The notice's own line (its raw detail is behind Details, in a second element).
    await notices.locator('.banner__text', { hasText: 'An outside edit of the registry was ignored' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'notice-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', { what: 'dark theme' });
    await screenshot(page, 'notice-dark');
    await notices.getByRole('button', { name: 'Dismiss notice' }).click();
    await notices.waitFor({ state: 'detached' });
    expect(host.getState().notices).toEqual([]);

    // The OS says dark; the setting says light, and wins. 'System' follows the OS again.
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    expect(await theme()).toBe('dark');
    await page.getByLabel('Theme').selectOption('light');
    await waitFor(async () => (await theme()) === 'light', { what: 'light theme' });
    expect(host.getState().settings.theme).toBe('light');
    await page.getByLabel('Theme').selectOption('system');
    await waitFor(async () => (await theme()) === 'dark', { what: 'dark theme again' });
  });

  it('is keyboard-usable: tabs, matrix arrows and Space, dialogs that close on Escape', async () => {
    session = await startUiSession();
    const { page, host } = session;
    const work = tempDir('mcp-roots-ui-work-');
    const folders = ['alpha', 'beta', 'gamma'].map((name) => path.join(work, name));
    for (const folder of folders) fs.mkdirSync(folder);
    const { added } = await host.addRoots(folders);
    // Disabled servers: the matrix works without starting any process.
    const one = await host.addServer({ name: 'one', transport: filesystemServer(), enabled: false, sharing: true });
    const two = await host.addServer({ name: 'two', transport: everythingServer(), enabled: false, sharing: true });

    // Tabs: arrows move between them.
    await page.getByRole('tab', { name: /Folders/ }).focus();
    await page.keyboard.press('ArrowRight');
    await waitFor(async () => (await page.getByRole('tab', { name: 'Access' }).getAttribute('aria-selected')) === 'true', { what: 'ArrowRight to select Access' });

    // The grid is one Tab stop after the toolbar (filters, sort, shared only); arrows move, Space toggles.
    await page.getByLabel('Filter folders').focus();
    for (const next of ['Filter servers', 'Sort', 'Shared only']) {
      await page.keyboard.press('Tab');
      expect(await page.getByLabel(next).evaluate((element) => element === document.activeElement), next).toBe(true);
    }
    await page.keyboard.press('Tab');
    const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(await focusedLabel()).toBe('Share alpha with one');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    expect(await focusedLabel()).toBe('Share beta with two');
    await page.keyboard.press('Space');
    const grantsOf = (id: string) => host.getState().servers.find((server) => server.id === id)?.grantedRootIds ?? [];
    await waitFor(() => grantsOf(one.id).includes(added[0]!.id) && grantsOf(two.id).includes(added[1]!.id), {
      what: 'both keyboard grants',
    });
    // Up into the header rows: the sharing switch of server "two".
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focusedLabel()).toBe('Share folders with two');

    // Bulk: a selected column shares every folder with that server; adding a selected row narrows
    // it to one cell. The scope is spelled out before anything is changed.
    const bulk = page.getByRole('group', { name: 'Change many at once' });
    await page.getByRole('checkbox', { name: 'Select server one' }).check();
    await bulk.getByText('all 3 folders × 1 server').waitFor();
    await bulk.getByRole('button', { name: 'Share', exact: true }).click();
    await waitFor(() => grantsOf(one.id).length === 3, { what: 'column granted' });
    await page.getByRole('checkbox', { name: 'Select folder alpha' }).check();
    await bulk.getByText('1 folder × 1 server').waitFor();
    await bulk.getByRole('button', { name: 'Stop sharing' }).click();
    await waitFor(() => !grantsOf(one.id).includes(added[0]!.id) && grantsOf(one.id).length === 2, { what: 'one cell revoked' });
    expect(grantsOf(two.id)).toEqual([added[1]!.id]);
    await bulk.getByRole('button', { name: 'Clear selection' }).click();

    // A dialog opened from the keyboard closes on Escape and gives focus back.
    await page.getByRole('tab', { name: /Servers/ }).click();
    const addButton = page.getByRole('button', { name: 'Add server' });
    await addButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a server' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await dialog.getByLabel('Name', { exact: true }).getAttribute('id'));
    // Focus stays inside: Shift+Tab from the first field wraps to the last control.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await waitFor(async () => (await page.evaluate(() => document.activeElement?.textContent))?.includes('Add server'), { what: 'focus back on Add server' });

    // Confirmations are dialogs too: Escape cancels a removal.
    await page.getByRole('tab', { name: /Folders/ }).click();
    await page.getByRole('button', { name: 'Remove gamma' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove “gamma”?' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(host.getState().roots).toHaveLength(3);

    // Inline rename: Enter saves.
    await page.getByRole('button', { name: 'Rename gamma' }).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Gamma (renamed)');
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /Gamma \(renamed\)/ }).waitFor();

    // And removal with the confirm button.
    await page.getByRole('button', { name: 'Remove Gamma (renamed)' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove folder' }).click();
    await waitFor(() => host.getState().roots.length === 2, { what: 'the folder removed' });
  });
});
