// Grants that bind, on screen (issue #11): real servers in real bubblewrap sandboxes, driven through
// Chromium. How each server runs (enforced and verified, advisory with the reason, off), read-only
// and read-write in the matrix by mouse and keyboard with the registry file checked afterwards, the
// folders a command line names offered on import and in the detail, and the words before the
// sandbox is turned off. Every screen in light and dark, at 800x600 and 1280x800, scanned with axe.
import fs from 'node:fs';
import path from 'node:path';
import { NetworkRecord, networkRecordFile } from '../../electron/host/sandbox/egress/network-record.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RootsHost } from '../../electron/host/roots-host.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { GrantMode, ServerView } from '../../shared/domain.js';
import { FILESYSTEM_ENTRY, filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES, waitConnected } from './ui-checks.js';
import { anyPathServer } from '../support/confined-client.js';
import { startUiSession, type UiSession } from './ui-harness.js';

const support = await probeSandbox();

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  vi.unstubAllEnvs();
  removeTempDirs();
});

/** What the registry FILE says (not the host's memory): the truth after a click. */
function registryFile(host: RootsHost): { servers: { id: string; name: string; sandbox: boolean; network: boolean; ownSandboxes?: boolean; allowLocal?: number[]; allowHosts?: string[]; transport: { args?: string[] } }[]; roots: { id: string; path: string }[]; grants: Record<string, Record<string, GrantMode>> } {
  return JSON.parse(fs.readFileSync(host.store.path, 'utf8')) as ReturnType<typeof registryFile>;
}

function serverView(host: RootsHost, id: string): ServerView {
  const found = host.getState().servers.find((server) => server.id === id);
  if (!found) throw new Error(`no server ${id}`);
  return found;
}

async function waitVerified(host: RootsHost, id: string): Promise<void> {
  await waitFor(() => serverView(host, id).status.confinement?.selfCheck?.verified === true && serverView(host, id).status.state === 'connected', {
    what: 'the confined server to start and pass its self-check',
    timeoutMs: 30_000,
  });
}

/** Screenshots the page in light and dark at both sizes and fails on serious or critical axe findings. */
async function capture(name: string, inView?: () => Promise<void>): Promise<void> {
  await lookEverywhere(session!.page, name, { sizes: SCREEN_SIZES, inView });
}

describe.runIf(support.kind === 'bwrap')('grants that bind, on screen', () => {
  it('badges every server with how it runs: enforced and verified, advisory with the reason, off', async () => {
    session = await startUiSession({ viewport: { width: 1280, height: 800 } });
    const { page, host } = session;
    const docs = tempDir('mcp-roots-sandbox-docs-');
    const [root] = (await host.addRoots([docs])).added;
    const confined = await host.addServer({ name: 'confined', transport: filesystemServer(), enabled: true, sharing: true });
    const unboxed = await host.addServer({ name: 'unboxed', transport: filesystemServer(), enabled: true, sharing: true, sandbox: false });
    await host.addServer({ name: 'remote', transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} }, enabled: false, sharing: true });
    await host.setGrants([confined.id, unboxed.id], [root!.id], true, 'read-only');
    await waitVerified(host, confined.id);
    await waitConnected(host, unboxed.id);

    await page.getByRole('tab', { name: /Servers/ }).click();
    const list = page.getByRole('navigation', { name: 'Servers' });
    await list.getByRole('button', { name: /confined/ }).getByText('Enforced (OS sandbox)', { exact: true }).waitFor();
    await list.getByRole('button', { name: /unboxed/ }).getByText('Off (you turned it off)', { exact: true }).waitFor();
    await list.getByRole('button', { name: /remote/ }).getByText('Advisory (roots only): a remote server, it runs elsewhere behind its URL', { exact: true }).waitFor();

    await list.getByRole('button', { name: /confined/ }).click();
    const detail = page.locator('.server-detail');
    await detail.getByRole('heading', { name: 'confined', level: 2 }).waitFor();
    const facts = detail.getByTestId('confinement');
    const checkedAt = serverView(host, confined.id).status.confinement!.selfCheck!.at;
    const clock = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit' }).format(checkedAt);
    await facts.getByText(`Verified at ${clock}`).waitFor();
    await facts.getByText('Network on', { exact: true }).waitFor();
    // How its grants reach it, as the host reports: its own file view where FUSE works, else bind mounts.
    await facts.getByText(support.view?.available ? 'File view (live)' : 'Static protection', { exact: true }).waitFor();
    await capture('sandbox-servers-enforced');

    await page.getByRole('tab', { name: /Access/ }).click();
    // Read-only binds the confined server; for the unconfined one the cell does not claim it does.
    await page.getByRole('checkbox', { name: `Share ${root!.name} with confined: read-only`, exact: true }).waitFor();
    await page.getByRole('checkbox', { name: `Share ${root!.name} with unboxed: read-only (advisory: not enforced)`, exact: true }).waitFor();
    await page.getByRole('columnheader', { name: /confined/ }).getByText('Enforced', { exact: true }).waitFor();
    await page.getByRole('columnheader', { name: /unboxed/ }).getByText('Sandbox off', { exact: true }).waitFor();
    await page.getByRole('columnheader', { name: /remote/ }).getByText('Advisory', { exact: true }).waitFor();
    await capture('sandbox-matrix-modes');
  });

  it('says why a server runs advisory when bubblewrap is missing, and the server still works', async () => {
    const noBwrap = await probeSandbox({ pathEnv: tempDir('mcp-roots-empty-path-') });
    expect(noBwrap.reasonCode).toBe('bwrap-missing');
    session = await startUiSession({ viewport: { width: 1280, height: 800 }, sandboxSupport: noBwrap });
    const { page, host } = session;
    const server = await host.addServer({ name: 'filesystem', transport: filesystemServer(), enabled: true, sharing: true });
    await waitConnected(host, server.id);
    await page.getByRole('tab', { name: /Servers/ }).click();
    const detail = page.locator('.server-detail');
    await detail
      .getByTestId('confinement')
      .getByText('Advisory (roots only): bubblewrap is not installed (install the “bubblewrap” package)', { exact: true })
      .waitFor();
    expect(serverView(host, server.id).status.state).toBe('connected');
    await capture('sandbox-servers-advisory');
  });

  it('says what bind mounts leave out where there is no file view, and the server still runs confined', async () => {
    session = await startUiSession({ viewport: { width: 800, height: 600 }, sandboxSupport: { ...support, view: { available: false, reason: 'test: no FUSE for this user' } } });
    const { page, host } = session;
    const server = await host.addServer({ name: 'bound', transport: filesystemServer(), enabled: true, sharing: true });
    await waitVerified(host, server.id);
    expect(serverView(host, server.id).status.confinement).toMatchObject({ state: 'enforced', grants: 'mounts' });
    await page.getByRole('tab', { name: /Servers/ }).click();
    const facts = page.locator('.server-detail').getByTestId('confinement');
    await facts.getByText('Enforced (OS sandbox)', { exact: true }).waitFor();
    const fact = facts.getByTestId('confinement-grants');
    await fact.getByText('Static protection', { exact: true }).waitFor();
    expect(await fact.getAttribute('title')).toBe(
      'Folders bound when it started (no file view here: FUSE is not available to your user). Repositories made or cloned after its start, or more than 3 folders deep, are not protected, and a change of grants restarts it.',
    );
    await capture('sandbox-servers-static');
  });

  it('shows the changes a server made in its folders, grouped by folder, and what its sandbox refused', async () => {
    session = await startUiSession({ viewport: { width: 1280, height: 800 } });
    const { page, host } = session;
    const project = tempDir('mcp-roots-changes-');
    fs.mkdirSync(path.join(project, 'src'));
    fs.writeFileSync(path.join(project, 'src', 'main.ts'), 'export {};\n');
    fs.writeFileSync(path.join(project, 'old-notes.md'), 'old\n');
    const [root] = (await host.addRoots([project])).added;
    const server = await host.addServer({ name: 'editor', transport: anyPathServer(), enabled: true, sharing: true, network: false });
    await host.setGrants([server.id], [root!.id], true, 'read-write');
    await waitVerified(host, server.id);
    const withView = serverView(host, server.id).status.confinement?.grants === 'view';
    await page.getByRole('tab', { name: /Servers/ }).click();
    const panel = page.getByRole('region', { name: 'Changes by this server' });
    if (!withView) {
      await panel.getByText('No record: without a file view on this computer', { exact: false }).waitFor();
      return;
    }
    await panel.getByText('No file created, changed or deleted in its folders.').waitFor();
    const call = (tool: string, args: Record<string, unknown>) => host.callTool(server.id, tool, args);
    await call('write', { path: path.join(project, 'src', 'util.ts'), content: 'export const x = 1;\n' });
    await call('append', { path: path.join(project, 'src', 'main.ts'), content: 'console.log(1);\n' });
    await call('remove', { path: path.join(project, 'old-notes.md') });
    await call('mkdir', { path: path.join(project, '.git') });
    // Shown within a few seconds (the view reports every quarter second, the detail asks every three).
    const rows = panel.getByRole('listitem');
    await waitFor(async () => (await rows.count()) === 3, { what: 'the three changes in the panel', timeoutMs: 30_000 });
    await panel.getByRole('list', { name: path.join(project, 'src') }).getByText('util.ts').waitFor();
    expect(await panel.getByRole('list', { name: path.join(project, 'src') }).getByRole('listitem').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^Created\s+util\.ts/), expect.stringMatching(/^Changed\s+main\.ts/)]));
    await panel.getByRole('list', { name: project }).getByText('old-notes.md').waitFor();
    await panel.getByText('Refused by its sandbox (1)').click();
    await panel.getByText('protected name').waitFor();
    // The edited file's diff: its content before the server's first change (kept by the view) against now.
    const mainRow = panel.getByRole('listitem').filter({ hasText: 'main.ts' });
    await mainRow.getByRole('button', { name: 'Diff' }).click();
    const diff = mainRow.getByRole('list', { name: `What changed in ${path.join(project, 'src', 'main.ts')}` });
    // The diff is asked of the host when the row opens: waited for, then read.
    await diff.getByRole('listitem').nth(1).waitFor();
    expect(await diff.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/export \{\};$/), expect.stringMatching(/^\+[\s\S]*console\.log\(1\);$/)]);
    await capture('server-changes', () => panel.scrollIntoViewIfNeeded());
    // "Mark as seen": from now on only what comes after.
    await panel.getByRole('button', { name: 'Mark as seen' }).click();
    await panel.getByText('No file created, changed or deleted in its folders.').waitFor();
    // History across servers: what it did, beside what happened to it (#29 item 4).
    await page.getByRole('tab', { name: /History/ }).click();
    await page.getByLabel('Show').selectOption({ label: 'Files it changed' });
    const history = page.getByRole('list', { name: 'History' });
    await history.getByText(`Created ${path.join(project, 'src', 'util.ts')}`).waitFor();
    await history.getByText(`Refused: Made the folder ${path.join(project, '.git')} (a protected name)`).waitFor();
    expect(await history.getByText(/^Connected \(protocol/).count()).toBe(0);
    await capture('history-files');
  });

  it("shows the changes since the server's process started, offers no Open folder it cannot do in a browser, and sets how much is kept", async () => {
    session = await startUiSession({ viewport: { width: 1280, height: 800 } });
    const { page, host } = session;
    const project = tempDir('mcp-roots-since-');
    const [root] = (await host.addRoots([project])).added;
    const server = await host.addServer({ name: 'restarted', transport: anyPathServer(), enabled: true, sharing: true, network: false });
    await host.setGrants([server.id], [root!.id], true, 'read-write');
    await waitVerified(host, server.id);
    if (serverView(host, server.id).status.confinement?.grants !== 'view') return;
    await page.getByRole('tab', { name: /Servers/ }).click();
    const panel = page.getByRole('region', { name: 'Changes by this server' });
    await panel.getByText('No file created, changed or deleted in its folders.').waitFor();
    // One change by its first process, then a restart, then one by the new process.
    await host.callTool(server.id, 'write', { path: path.join(project, 'before.txt'), content: 'first run\n' });
    const firstStart = serverView(host, server.id).status.startedAt;
    expect(firstStart).toBeGreaterThan(0);
    await panel.getByText('before.txt').waitFor({ timeout: 30_000 });
    await host.reconnect(server.id);
    await waitFor(() => (serverView(host, server.id).status.startedAt ?? 0) > firstStart!, { what: 'a new process', timeoutMs: 30_000 });
    await waitVerified(host, server.id);
    await host.callTool(server.id, 'write', { path: path.join(project, 'after.txt'), content: 'second run\n' });
    await panel.getByText('after.txt').waitFor({ timeout: 30_000 });

    const since = panel.getByLabel('Since', { exact: true });
    const started = serverView(host, server.id).status.startedAt!;
    const startedOption = since.locator('option[value="started"]');
    expect(await startedOption.isDisabled()).toBe(false);
    expect(await startedOption.textContent()).toMatch(/^it started \(\d\d:\d\d:\d\d( [AP]M)?\)$/);
    await since.selectOption('started');
    // Only what the current process did: the first run's file is not among them.
    await waitFor(async () => (await panel.getByText('before.txt').count()) === 0, { what: 'the first run left out', timeoutMs: 10_000 });
    expect(await panel.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^Created\s+after\.txt/)]);
    expect(started).toBeGreaterThan(firstStart!);
    // The browser shell has no file manager to open: no button says it does (the heading is the path, to copy).
    expect(await panel.getByRole('button', { name: /Open folder/ }).count()).toBe(0);
    await panel.getByRole('heading', { name: project }).waitFor();
    await capture('server-changes-since-started', () => panel.scrollIntoViewIfNeeded());

    // How much is kept: said under the list, changed there within its range.
    await since.selectOption('all');
    await panel.getByText('before.txt').waitFor();
    expect(await since.locator('option[value="all"]').textContent()).toBe('everything kept (30 days)');
    await panel.getByText('Kept for each server: the newest 10,000 operations within 30 days.').waitFor();
    await panel.getByRole('button', { name: 'Change', exact: true }).click();
    const entries = panel.getByLabel('Operations kept per server', { exact: true });
    await entries.fill('5');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByRole('alert').filter({ hasText: 'A whole number from 100 to 100,000.' }).waitFor();
    expect(registryFile(host)).not.toHaveProperty('settings.recordEntries');
    await capture('record-bounds-refused', () => entries.scrollIntoViewIfNeeded());
    await entries.fill('200');
    await panel.getByLabel('Days kept', { exact: true }).fill('7');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Kept for each server: the newest 200 operations within 7 days.').waitFor();
    expect((registryFile(host) as unknown as { settings: Record<string, unknown> }).settings).toMatchObject({ recordEntries: 200, recordDays: 7 });
    expect(await since.locator('option[value="all"]').textContent()).toBe('everything kept (7 days)');
    // The record itself lost nothing: both runs' files are still listed.
    expect(await panel.getByRole('listitem').count()).toBe(2);
  });

  it('changes a grant between read-write and read-only by mouse and by keyboard, and the registry follows', async () => {
    session = await startUiSession({ viewport: { width: 1280, height: 800 } });
    const { page, host } = session;
    const docs = tempDir('mcp-roots-sandbox-modes-');
    const [root] = (await host.addRoots([docs])).added;
    const server = await host.addServer({ name: 'confined', transport: filesystemServer(), enabled: true, sharing: true });
    await host.setGrants([server.id], [root!.id], true, 'read-write');
    await waitVerified(host, server.id);
    const mode = () => registryFile(host).grants[server.id]?.[root!.id];
    expect(mode()).toBe('read-write');

    await page.getByRole('tab', { name: /Access/ }).click();
    const cell = (name: string) => page.getByRole('checkbox', { name: `Share ${root!.name} with confined${name}`, exact: true });
    await cell(': read-write').waitFor();

    // Mouse: the mode button beside the checkbox.
    await page.getByRole('button', { name: `rw: make ${root!.name} read-only for confined`, exact: true }).click();
    await waitFor(() => mode() === 'read-only', { what: 'read-only in the registry file' });
    await cell(': read-only').waitFor();
    await waitVerified(host, server.id);
    expect(serverView(host, server.id).readOnlyRootIds).toEqual([root!.id]);

    // Keyboard: R on the focused cell changes the mode, Space still revokes and grants.
    await cell(': read-only').focus();
    await page.keyboard.press('r');
    await waitFor(() => mode() === 'read-write', { what: 'read-write in the registry file after R' });
    await cell(': read-write').waitFor();
    await page.keyboard.press('r');
    await waitFor(() => mode() === 'read-only', { what: 'read-only again after a second R' });
    await page.keyboard.press('Space');
    await waitFor(() => mode() === undefined, { what: 'the grant revoked by Space' });
    await cell('').waitFor();
    // R on a cell that is not granted changes nothing (there is no mode to change).
    await page.keyboard.press('r');
    await page.keyboard.press('Space');
    // Least privilege (#30): a new grant is read-only; read-write is the second, deliberate step (R).
    await waitFor(() => mode() === 'read-only', { what: 'a new grant, read-only by default' });
    await cell(': read-only').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Share ${root!.name} with confined: read-only`);
    await page.keyboard.press('r');
    await waitFor(() => mode() === 'read-write', { what: 'read-write after R on the new grant' });
  });

  it('offers the folders a command line names on import and in the detail, one by one, granting nothing unasked', async () => {
    // The host runs in this process: discovery of "the usual places" must find an empty home.
    const home = tempDir('mcp-roots-home-');
    vi.stubEnv('HOME', home);
    vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
    session = await startUiSession({ viewport: { width: 1280, height: 800 } });
    const { page, host } = session;
    const work = tempDir('mcp-roots-argdirs-');
    const [projects, notes] = [path.join(work, 'projects'), path.join(work, 'notes')];
    fs.mkdirSync(projects);
    fs.mkdirSync(notes);
    const config = path.join(work, 'Claude', 'claude_desktop_config.json');
    fs.mkdirSync(path.dirname(config));
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { filesystem: { command: process.execPath, args: [FILESYSTEM_ENTRY, projects, notes] } } }, null, 2));

    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import servers from other apps' });
    await dialog.getByLabel('A config file (optional)').fill(config);
    await dialog.getByRole('button', { name: 'Look for servers' }).click();
    const flag = dialog.getByTestId('argument-folders-flag');
    await flag.getByText('Its command line names 2 folders.', { exact: false }).waitFor();
    await flag.getByText(projects, { exact: true }).waitFor();
    await flag.getByText(notes, { exact: true }).waitFor();
    await flag.getByText('argument 2', { exact: true }).waitFor();
    await capture('sandbox-import-flag');

    await dialog.getByRole('button', { name: 'Import 1 server' }).click();
    await dialog.getByRole('heading', { name: 'Imported 1 server' }).waitFor();
    const offer = dialog.getByTestId('argument-folders');
    await offer.getByRole('button', { name: `Grant this folder: ${projects}` }).waitFor();
    // Imported, nothing granted: no root was added either.
    const id = host.getState().servers.find((server) => server.name === 'filesystem')!.id;
    expect(registryFile(host).roots).toEqual([]);
    expect(registryFile(host).grants[id]).toEqual({});
    await capture('sandbox-import-offer');

    // Grant one: a root for exactly that folder, granted to exactly this server.
    await offer.getByRole('button', { name: `Grant this folder: ${projects}` }).click();
    await offer.getByText('Granted', { exact: true }).waitFor();
    // The screen may show the state a moment before the file is written: wait for the file.
    await waitFor(() => registryFile(host).roots.length === 1, { what: 'the new root in the registry file' });
    const granted = registryFile(host);
    expect(granted.roots.map((root) => root.path)).toEqual([projects]);
    // Read-only, as every grant made without a choice of mode (#30): read-write is a second step.
    await waitFor(() => registryFile(host).grants[id]?.[granted.roots[0]!.id] === 'read-only', { what: 'the grant in the registry file' });
    expect(registryFile(host).grants[id]).toEqual({ [granted.roots[0]!.id]: 'read-only' });

    // Replace the other with ${roots}: the grants decide what it is started with.
    await offer.getByRole('button', { name: `Replace with \${roots}: ${notes}` }).click();
    await waitFor(() => registryFile(host).servers.find((server) => server.id === id)?.transport.args?.join(' ') === `${FILESYSTEM_ENTRY} ${projects} \${roots}`, {
      what: 'the notes argument replaced by ${roots}',
    });
    expect(registryFile(host).roots).toHaveLength(1);

    // The detail offers what is left, folder by folder.
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    const detail = page.locator('.server-detail');
    await detail.getByRole('heading', { name: 'filesystem', level: 2 }).waitFor();
    const left = detail.getByTestId('argument-folders');
    await left.getByText(projects, { exact: true }).waitFor();
    await left.getByText('Granted', { exact: true }).waitFor();
    expect(await left.getByText(notes, { exact: true }).count()).toBe(0);
    await capture('sandbox-detail-argument-folders');
    await left.getByRole('button', { name: `Replace with \${roots}: ${projects}` }).click();
    await waitFor(() => registryFile(host).servers.find((server) => server.id === id)?.transport.args?.join(' ') === `${FILESYSTEM_ENTRY} \${roots}`, {
      what: 'the last folder argument gone',
    });
    await left.waitFor({ state: 'detached' });
  });

  it('names the path the sandbox blocked and offers to grant its folder or to run without the sandbox', async () => {
    // A slow retry keeps the failure on screen while it is looked at; the grant itself restarts the server.
    session = await startUiSession({ viewport: { width: 1280, height: 800 }, reconnectDelaysMs: [60_000] });
    const { page, host } = session;
    // server-filesystem told to serve a folder nobody granted: confined, it cannot open it and exits.
    const project = tempDir('mcp-roots-blocked-');
    const server = await host.addServer({
      name: 'fs-args',
      transport: { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, project], env: {} },
      enabled: true,
      sharing: true,
    });
    await waitFor(() => serverView(host, server.id).status.confinement?.blocked?.folder === project, {
      what: 'the sandbox block to be read from its stderr',
      timeoutMs: 30_000,
    });

    await page.getByRole('tab', { name: /Servers/ }).click();
    const blocked = page.locator('.server-detail').getByTestId('sandbox-blocked');
    await blocked.getByText(`it tried to use ${project}, which is outside the folders it may use.`, { exact: false }).waitFor();
    await capture('sandbox-blocked');
    // The line the server wrote about it is quoted once on this screen, in the failure's "The server said" (#30 item 5).
    const line = serverView(host, server.id).status.confinement?.blocked?.line as string;
    const callouts = page.locator('.server-detail').locator('[data-testid="server-failure"], [data-testid="sandbox-blocked"]');
    expect(await callouts.locator('pre', { hasText: line }).count()).toBe(1);
    // Nor again in the list beside: its card says what happened, the details say the words.
    const card = page.getByRole('navigation', { name: 'Servers' }).locator('[aria-current="true"]');
    await card.locator('.server-list__failure').waitFor();
    expect(await card.locator('.server-list__failure').innerText()).not.toContain(line);

    // "Run without sandbox…" asks first, with the same words as the switch; cancelled here.
    await blocked.getByRole('button', { name: 'Run without sandbox…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Run fs-args without the sandbox?' });
    await confirm.getByText('will be able to read and write every file your user can', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(registryFile(host).servers.find((entry) => entry.id === server.id)?.sandbox).toBe(true);

    // "Grant <folder>…": the path came from the server's own output, so a dialog says so, shows the
    // exact folder and starts on read-only; nothing is granted until it is confirmed.
    await blocked.getByRole('button', { name: `Grant ${project}…` }).click();
    const suggestion = page.getByRole('alertdialog', { name: 'Grant the folder the server asked for?' });
    await suggestion.getByText('fs-args named this folder in its own error output', { exact: false }).waitFor();
    await suggestion.locator('code', { hasText: project }).waitFor();
    expect(await suggestion.getByRole('radio', { name: /Read-only/ }).isChecked()).toBe(true);
    await capture('grant-suggestion');
    expect(registryFile(host).roots.some((entry) => entry.path === project)).toBe(false);
    // Confirmed as offered: a root for exactly that folder, granted read-only to this server; it then starts confined.
    await suggestion.getByRole('button', { name: 'Grant read-only' }).click();
    await waitFor(() => {
      const file = registryFile(host);
      const root = file.roots.find((entry) => entry.path === project);
      return root !== undefined && file.grants[server.id]?.[root.id] === 'read-only';
    }, { what: 'the blocked folder granted read-only in the registry file' });
    await waitVerified(host, server.id);
    await blocked.waitFor({ state: 'detached' });
  });

  it('lets a server make sandboxes of its own (for a browser) by a switch, and its check then says so', async () => {
    session = await startUiSession({ viewport: { width: 1280, height: 800 } });
    const { page, host } = session;
    const server = await host.addServer({ name: 'browser', transport: filesystemServer(), enabled: true, sharing: true });
    await waitVerified(host, server.id);
    await page.getByRole('tab', { name: /Servers/ }).click();
    const detail = page.locator('.server-detail');
    const own = detail.getByRole('switch', { name: 'Own sandboxes' });
    expect(await own.getAttribute('aria-checked')).toBe('false');
    await detail.getByText('Off: it cannot make sandboxes of its own inside this one.', { exact: false }).waitFor();
    await own.click();
    await waitFor(() => registryFile(host).servers.find((entry) => entry.id === server.id)?.ownSandboxes === true, { what: 'own sandboxes on in the registry file' });
    await waitFor(() => serverView(host, server.id).status.confinement?.selfCheck?.detail?.includes('user namespaces allowed inside, by your choice'), {
      what: 'the server restarted with its own sandboxes allowed, and its check saying so',
      timeoutMs: 30_000,
    });
    await detail.getByText('It may make sandboxes of its own inside this one', { exact: false }).waitFor();
    expect(await own.getAttribute('aria-checked')).toBe('true');
    await capture('sandbox-own-sandboxes');
  });

  it("opens a port of this computer for a network-on server and closes it again; the registry and its check follow", async () => {
    session = await startUiSession({ viewport: { width: 1280, height: 800 } });
    const { page, host } = session;
    const server = await host.addServer({ name: 'remote', transport: filesystemServer(), enabled: true, sharing: true });
    await waitVerified(host, server.id);
    await page.getByRole('tab', { name: /Servers/ }).click();
    const detail = page.locator('.server-detail');
    const privateNetwork = serverView(host, server.id).status.confinement?.loopback === 'closed';
    await detail.getByText(privateNetwork ? 'Closed unless opened here' : 'Not enforced here', { exact: false }).waitFor();
    await detail.getByText('none open').waitFor();
    const input = detail.getByRole('textbox', { name: 'A port of this computer to open for it' });
    // A word that is not a port is refused where it was typed, and nothing is saved.
    await input.fill('80/tcp');
    await detail.getByRole('button', { name: 'Open port' }).click();
    await detail.getByText('A port is a whole number between 1 and 65535.').waitFor();
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(registryFile(host).servers.find((entry) => entry.id === server.id)?.allowLocal).toBeUndefined();
    await input.fill('3000');
    await input.press('Enter');
    await waitFor(() => registryFile(host).servers.find((entry) => entry.id === server.id)?.allowLocal?.join() === '3000', { what: 'port 3000 in the registry file' });
    if (privateNetwork) {
      await waitFor(() => serverView(host, server.id).status.confinement?.selfCheck?.detail?.includes('except port(s) 3000, opened by you'), { what: 'the restarted server checked with port 3000 open', timeoutMs: 30_000 });
    }
    await detail.getByRole('button', { name: 'Close port 3000' }).waitFor();
    await capture('sandbox-local-ports');
    await detail.getByRole('button', { name: 'Close port 3000' }).click();
    await waitFor(() => registryFile(host).servers.find((entry) => entry.id === server.id)?.allowLocal?.length === 0, { what: 'port 3000 closed in the registry file' });
    await detail.getByText('none open').waitFor();
  });

  it('limits a network-on server to the hosts listed, refuses a bad entry where it was typed, and changes the list live', async () => {
    session = await startUiSession({ viewport: { width: 1280, height: 800 } });
    const { page, host } = session;
    const server = await host.addServer({ name: 'limited', transport: filesystemServer(), enabled: true, sharing: true });
    await waitVerified(host, server.id);
    await page.getByRole('tab', { name: /Servers/ }).click();
    const detail = page.locator('.server-detail');
    const hostsOf = () => registryFile(host).servers.find((entry) => entry.id === server.id)?.allowHosts;
    await detail.getByText('It may reach any host on the internet.', { exact: false }).waitFor();
    await detail.getByRole('radio', { name: 'Only these hosts' }).click();
    await waitFor(() => hostsOf()?.length === 0, { what: 'an empty list of allowed hosts in the registry file' });
    await detail.getByText('none: no host at all').waitFor();
    const enforced = serverView(host, server.id).status.confinement?.loopback === 'closed';
    if (enforced) {
      await waitFor(() => serverView(host, server.id).status.confinement?.selfCheck?.detail?.includes('outbound to no host at all'), { what: 'the restarted server checked with no host', timeoutMs: 30_000 });
    }
    const input = detail.getByRole('textbox', { name: 'A host it may reach' });
    await input.fill('https://api.github.com');
    await detail.getByRole('button', { name: 'Allow host' }).click();
    await detail.getByText('not a URL', { exact: false }).waitFor();
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(hostsOf()).toEqual([]);
    await input.fill('API.github.com');
    await input.press('Enter');
    await waitFor(() => hostsOf()?.join() === 'api.github.com', { what: 'api.github.com in the registry file' });
    await detail.getByRole('button', { name: 'Remove api.github.com' }).waitFor();
    if (enforced) {
      // One list for another: applied live (the same process), and its check names the new list.
      const pid = serverView(host, server.id).status.pid;
      await waitFor(() => serverView(host, server.id).status.confinement?.selfCheck?.detail?.includes('its allowed hosts only (api.github.com)'), { what: 'the check naming the new list', timeoutMs: 30_000 });
      expect(serverView(host, server.id).status.pid).toBe(pid);
      await detail.getByRole('region', { name: 'Names and connections' }).getByText('Nothing recorded yet.').waitFor();
    }
    // How recorded rows look (what fills the record is tested in sandbox-egress.test.ts): the host's
    // own record file, written as its runs write it, and read back by the detail.
    const record = new NetworkRecord(networkRecordFile(path.dirname(host.store.path), server.id));
    record.note({ kind: 'lookup', target: 'api.github.com', verdict: 'allowed', addresses: ['140.82.121.6'] });
    record.note({ kind: 'connect', target: '140.82.121.6:443/tcp', verdict: 'allowed', names: ['api.github.com'] });
    record.note({ kind: 'lookup', target: 'telemetry.example.com', verdict: 'refused' });
    record.note({ kind: 'connect', target: '203.0.113.9:443/tcp', verdict: 'refused' });
    record.flush();
    const rows = detail.getByRole('region', { name: 'Names and connections' }).getByRole('listitem');
    await waitFor(async () => (await rows.count()) === 4, { what: 'the four recorded rows in the detail', timeoutMs: 20_000 });
    await capture('sandbox-allowed-hosts', () => detail.locator('.allowed-hosts').scrollIntoViewIfNeeded());
    await detail.getByRole('radio', { name: 'Any host' }).click();
    await waitFor(() => hostsOf() === undefined, { what: 'any host again in the registry file' });
  });

  it('asks before turning the sandbox off and says what that means; network off is shown as a fact', async () => {
    session = await startUiSession({ viewport: { width: 1280, height: 800 } });
    const { page, host } = session;
    const server = await host.addServer({ name: 'confined', transport: filesystemServer(), enabled: true, sharing: true });
    await waitVerified(host, server.id);
    const record = () => registryFile(host).servers.find((entry) => entry.id === server.id)!;

    await page.getByRole('tab', { name: /Servers/ }).click();
    const detail = page.locator('.server-detail');
    const facts = detail.getByTestId('confinement');
    await facts.getByText('Enforced (OS sandbox)', { exact: true }).waitFor();

    // Network off: a fact of the enforced server once it runs again.
    await detail.getByRole('switch', { name: 'Network' }).click();
    await waitFor(() => record().network === false, { what: 'network off in the registry file' });
    await waitFor(() => serverView(host, server.id).status.confinement?.network === false && serverView(host, server.id).status.confinement?.selfCheck?.verified === true, {
      what: 'the server restarted without network',
      timeoutMs: 30_000,
    });
    await facts.getByText('Network off', { exact: true }).waitFor();

    // Sandbox off: asked first, in words; Cancel changes nothing.
    const sandboxSwitch = detail.getByRole('switch', { name: 'Sandbox', exact: true });
    await sandboxSwitch.click();
    const confirm = page.getByRole('alertdialog', { name: 'Run confined without the sandbox?' });
    await confirm.getByText('will be able to read and write every file your user can', { exact: false }).waitFor();
    await capture('sandbox-off-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(record().sandbox).toBe(true);
    expect(await sandboxSwitch.getAttribute('aria-checked')).toBe('true');

    await sandboxSwitch.click();
    await confirm.getByRole('button', { name: 'Run without sandbox' }).click();
    await confirm.waitFor({ state: 'detached' });
    await waitFor(() => record().sandbox === false, { what: 'sandbox off in the registry file' });
    await facts.getByText('Off (you turned it off)', { exact: true }).waitFor();
    await detail.getByText('Off, but not enforced: without the OS sandbox this server can still use the network.').waitFor();
  });
});
