// Import from other apps and "use with" in a real browser: real-shaped Claude Desktop, VS Code and
// Cursor configs in temp folders (never the real home: HOME and friends point at an empty temp
// one), driven through the dialogs; the registry and the written file are the truth checked.
// Every dialog state is screenshot in light and dark and scanned with axe.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { proxiedServerOf } from '../../electron/import/proxy-launcher.js';
import type { ServerView } from '../../shared/domain.js';
import { EVERYTHING_ENTRY, FILESYSTEM_ENTRY, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { lookEverywhere } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';


let session: UiSession;

/** Screenshots one state in both schemes and fails on serious or critical axe findings. */
async function capture(name: string): Promise<void> {
  await lookEverywhere(session.page, name);
}

const focusedText = () => session.page.evaluate(() => (document.activeElement?.closest('label') ?? document.activeElement)?.textContent?.trim() ?? '');

function serverNamed(name: string): ServerView {
  const found = session.host.getState().servers.find((server) => server.name === name);
  if (!found) throw new Error(`no server named ${name}`);
  return found;
}

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** Real-shaped configs of three hosts, plus a broken Claude Code project file. */
function hostConfigs() {
  const dir = tempDir('mcp-roots-hosts-');
  const project = path.join(dir, 'Project Alpha');
  fs.mkdirSync(project);
  const claude = write(
    path.join(dir, 'Claude', 'claude_desktop_config.json'),
    JSON.stringify(
      {
        mcpServers: {
          filesystem: { command: process.execPath, args: [FILESYSTEM_ENTRY, project] },
          everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env: { API_KEY: 'sk-never-shown-1234' } },
          postgres: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://reader@localhost:5432/shop'], env: { PGPASSWORD: 'pg-never-shown' } },
        },
        globalShortcut: 'Ctrl+Space',
      },
      null,
      2,
    ),
  );
  write(
    path.join(project, '.vscode', 'mcp.json'),
    `{
  // VS Code asks for the token on first start.
  "inputs": [{ "type": "promptString", "id": "token", "description": "Search API token", "password": true }],
  "servers": {
    "search": {
      "type": "http",
      "url": "http://127.0.0.1:9/mcp",
      "headers": { "Authorization": "Bearer \${input:token}" }
    },
  },
}
`,
  );
  write(
    path.join(project, '.cursor', 'mcp.json'),
    JSON.stringify(
      {
        mcpServers: {
          notes: { command: 'uvx', args: ['mcp-notes-server'], env: { NOTES_TOKEN: '${env:NOTES_TOKEN}' } },
          'roots-fs': { command: 'mcp-roots', args: ['proxy', 'filesystem'] },
        },
      },
      null,
      2,
    ),
  );
  write(path.join(project, '.mcp.json'), '{ "mcpServers": { "broken": ');
  return { dir, project, claude };
}

beforeAll(async () => {
  // The host runs in this process: discovery of "the usual places" must find an empty home.
  const home = tempDir('mcp-roots-home-');
  vi.stubEnv('HOME', home);
  vi.stubEnv('USERPROFILE', home);
  vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
  vi.stubEnv('APPDATA', path.join(home, 'AppData', 'Roaming'));
  vi.stubEnv('LOCALAPPDATA', path.join(home, 'AppData', 'Local'));
  session = await startUiSession();
});

afterAll(async () => {
  await session?.close();
  vi.unstubAllEnvs();
  removeTempDirs();
});

describe('import from other apps, then use with Claude Desktop', () => {
  it('teaches when nothing is found, imports chosen servers with variables as written, and points Claude Desktop at the proxy', async () => {
    const { page, host } = session;
    const configs = hostConfigs();

    // The empty Servers screen offers Import beside Add server.
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('heading', { name: 'No servers yet' }).waitFor();
    await capture('import-servers-empty');
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import servers from other apps' });
    await dialog.waitFor();
    expect(await focusedText()).toBe('Claude Desktop');
    await capture('import-where');

    // The usual places of an empty home hold nothing: the result says where the apps keep servers.
    await dialog.getByRole('button', { name: 'Look for servers' }).click();
    await dialog.getByText('No config files found').waitFor();
    expect(await focusedText()).toBe('Read 0 config files');
    await capture('import-nothing-found');
    await dialog.getByRole('button', { name: 'Back' }).click();

    // A relative path is refused beside its field before anything is asked of the host.
    await dialog.getByLabel('A config file (optional)').fill('relative/claude_desktop_config.json');
    expect(await dialog.getByLabel('Read it as').inputValue()).toBe('claude-desktop');
    await dialog.getByRole('button', { name: 'Look for servers' }).click();
    await dialog.getByText('Enter a full path, starting at the top of the disk.').waitFor();
    await capture('import-where-problem');

    // An existing server makes the Claude Desktop "everything" entry a duplicate.
    await host.addServer({ name: 'everything', transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env: {} }, enabled: false, sharing: true });

    await dialog.getByLabel('A config file (optional)').fill(configs.claude);
    await dialog.getByLabel('Project folders (optional)').fill(configs.project);
    await dialog.getByRole('button', { name: 'Look for servers' }).click();
    await dialog.getByRole('heading', { name: '6 servers found' }).waitFor();
    // Arguments in full (the postgresql:// URL is what the server is given), env keys with values masked.
    const postgres = candidate(dialog, 'postgres');
    await postgres.getByText('npx -y @modelcontextprotocol/server-postgres postgresql://reader@localhost:5432/shop').waitFor();
    await postgres.getByText('PGPASSWORD=••••••').waitFor();
    expect(await page.content()).not.toContain('pg-never-shown');

    // Sources: each file with its scope; the broken one shows its error in place.
    const brokenSource = dialog.locator('li.import-source', { hasText: path.join(configs.project, '.mcp.json') });
    await brokenSource.getByRole('alert').waitFor();
    expect(await dialog.locator('li.import-source').count()).toBe(4);

    // Variables are shown as written, never expanded; secrets are not in the page.
    await dialog.getByText('${input:token}', { exact: true }).waitFor();
    await dialog.getByText('${env:NOTES_TOKEN}', { exact: true }).waitFor();
    expect(await page.content()).not.toContain('sk-never-shown-1234');
    const token = dialog.getByLabel('Value for ${input:token}');
    expect(await token.getAttribute('type')).toBe('password');

    // Taken ones stay visible, unticked, with the reason.
    const everythingBox = dialog.getByRole('checkbox', { name: 'Import everything from Claude Desktop' });
    expect(await everythingBox.isDisabled()).toBe(true);
    await candidate(dialog, 'everything').getByText('which is already in this app').waitFor();
    expect(await dialog.getByRole('checkbox', { name: 'Import roots-fs from Cursor' }).isDisabled()).toBe(true);
    await candidate(dialog, 'roots-fs').getByText('already runs through the mcp-roots proxy').waitFor();
    await capture('import-preview');
    await dialog.locator('.dialog__body').evaluate((body) => body.scrollTo(0, body.scrollHeight));
    await capture('import-preview-end');
    await dialog.locator('.dialog__body').evaluate((body) => body.scrollTo(0, 0));

    // Rename one, fill the token, leave the Cursor env variable empty (added switched off), leave
    // postgres out. The person decides whether they start: here, yes.
    await candidate(dialog, 'filesystem').getByLabel('Name in this app').fill('fs-desktop');
    await token.fill('tok-123');
    await dialog.getByRole('checkbox', { name: 'Import postgres from Claude Desktop' }).uncheck();
    const start = dialog.getByLabel('Start them as soon as they are imported');
    expect(await start.isChecked()).toBe(false);
    await start.check();
    await dialog.getByRole('button', { name: 'Import 3 servers' }).click();
    await dialog.getByRole('heading', { name: 'Imported 3 servers' }).waitFor();
    await dialog.getByText('Switched off until this variable has a value').waitFor();
    await dialog.getByText('No folder was shared with them.').waitFor();
    await capture('import-done');

    // The registry has them with the right transports, no folders, the token filled in.
    const fsDesktop = serverNamed('fs-desktop');
    expect(fsDesktop.transport).toMatchObject({ type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, configs.project] });
    expect(fsDesktop.enabled).toBe(true);
    const search = serverNamed('search');
    expect(search.transport).toMatchObject({ type: 'http', url: 'http://127.0.0.1:9/mcp' });
    const notes = serverNamed('notes');
    expect(notes.transport).toMatchObject({ type: 'stdio', command: 'uvx', env: { NOTES_TOKEN: expect.any(String) } });
    expect(notes.enabled).toBe(false);
    for (const server of [fsDesktop, search, notes]) expect(server.grantedRootIds).toEqual([]);
    const record = host.registrySnapshot.servers.find((server) => server.name === 'search');
    expect(record?.transport).toMatchObject({ headers: { Authorization: 'Bearer tok-123' } });
    expect(host.registrySnapshot.servers.find((server) => server.name === 'notes')?.transport).toMatchObject({ env: { NOTES_TOKEN: '${env:NOTES_TOKEN}' } });

    // Done shows the first imported server.
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'search', level: 2 }).waitFor();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /fs-desktop/ }).click();
    await page.getByRole('heading', { name: 'fs-desktop', level: 2 }).waitFor();

    // Use with Claude Desktop, into a config that already has content (and this very server).
    const target = write(
      path.join(tempDir('mcp-roots-target-'), 'claude_desktop_config.json'),
      `${JSON.stringify(
        {
          mcpServers: {
            filesystem: { command: process.execPath, args: [FILESYSTEM_ENTRY, configs.project] },
            other: { command: 'npx', args: ['-y', 'some-other-server'], env: { OTHER_KEY: 'sk-other-never-shown' } },
          },
          globalShortcut: 'Ctrl+Space',
        },
        null,
        2,
      )}\n`,
    );
    const original = fs.readFileSync(target, 'utf8');
    await page.locator('.server-detail').getByRole('button', { name: 'Use with…' }).click();
    const useWith = page.getByRole('dialog', { name: 'Use servers with another app' });
    await useWith.waitFor();
    expect(await focusedText()).toBe('Claude Desktop');
    expect(await useWith.getByRole('checkbox', { name: /fs-desktop/ }).isChecked()).toBe(true);
    await useWith.getByRole('radio', { name: 'Another file' }).check();
    await capture('use-with-form');
    await useWith.getByRole('button', { name: 'Preview' }).click();
    await useWith.getByText('Enter the config file’s full path.').waitFor();
    await useWith.getByLabel('Config file', { exact: true }).fill(target);
    await useWith.getByRole('button', { name: 'Preview' }).click();
    await useWith.getByRole('heading', { name: 'What will be written' }).waitFor();
    await useWith.getByText('replaces the existing entry').waitFor();
    await useWith.getByText(`proxy --config-dir ${session.configDir} fs-desktop`).waitFor();
    // The before/after of the servers section: the old entry's lines out, the proxy's in, secrets masked.
    const diff = useWith.getByRole('list', { name: 'The servers section, before and after' });
    await diff.getByRole('listitem').filter({ hasText: 'removed:' }).filter({ hasText: FILESYSTEM_ENTRY }).waitFor();
    await diff.getByRole('listitem').filter({ hasText: 'added:' }).filter({ hasText: '"fs-desktop"' }).waitFor();
    expect(await page.content()).not.toContain('sk-other-never-shown');
    expect(fs.readFileSync(target, 'utf8')).toBe(original);
    await capture('use-with-preview');

    await useWith.getByRole('button', { name: 'Write config' }).click();
    await useWith.getByRole('heading', { name: 'Wrote 1 entry' }).waitFor();
    await capture('use-with-written');

    const written = JSON.parse(fs.readFileSync(target, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }>; globalShortcut: string };
    const entry = written.mcpServers.filesystem;
    expect(entry).toBeDefined();
    expect(entry!.command).toBe(process.execPath);
    expect(entry!.args.slice(-4)).toEqual(['proxy', '--config-dir', session.configDir, 'fs-desktop']);
    expect(proxiedServerOf(entry!.command, entry!.args)).toBe('fs-desktop');
    expect(written.mcpServers.other).toEqual({ command: 'npx', args: ['-y', 'some-other-server'], env: { OTHER_KEY: 'sk-other-never-shown' } });
    expect(written.globalShortcut).toBe('Ctrl+Space');
    const backups = fs.readdirSync(path.dirname(target)).filter((name) => name.endsWith('.bak'));
    expect(backups).toHaveLength(1);
    const backup = path.join(path.dirname(target), backups[0]!);
    expect(fs.readFileSync(backup, 'utf8')).toBe(original);
    await useWith.getByText(backup).waitFor();

    await useWith.getByRole('button', { name: 'Done' }).click();
    await useWith.waitFor({ state: 'detached' });
    // The app is still there after the dialog went (a page error would also fail this test).
    await page.getByRole('heading', { name: 'fs-desktop', level: 2 }).waitFor();
    await waitFor(() => host.getState().servers.length === 4, { what: 'four servers' });

    // A second run with nothing to change: said so, no Write button, nothing written, no new backup.
    const writtenText = fs.readFileSync(target, 'utf8');
    await page.locator('.server-detail').getByRole('button', { name: 'Use with…' }).click();
    await useWith.getByRole('radio', { name: 'Another file' }).check();
    await useWith.getByLabel('Config file', { exact: true }).fill(target);
    await useWith.getByRole('button', { name: 'Preview' }).click();
    await useWith.getByText('Nothing to change: Claude Desktop already starts these servers through this app.').waitFor();
    await useWith.getByText('already so: nothing to change').waitFor();
    expect(await useWith.getByRole('button', { name: 'Write config' }).count()).toBe(0);
    await capture('use-with-nothing-to-change');
    await useWith.getByRole('button', { name: 'Cancel' }).click();
    expect(fs.readFileSync(target, 'utf8')).toBe(writtenText);
    expect(fs.readdirSync(path.dirname(target)).filter((name) => name.endsWith('.bak'))).toHaveLength(1);
  });

  it('closes Use with… by Cancel, the close button and Escape, and the app stays', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    const opener = page.locator('.server-detail').getByRole('button', { name: 'Use with…' });
    const useWith = page.getByRole('dialog', { name: 'Use servers with another app' });
    const ways: [string, () => Promise<void>][] = [
      ['Cancel', () => useWith.getByRole('button', { name: 'Cancel' }).click()],
      ['the close button', () => useWith.getByRole('button', { name: 'Close' }).click()],
      ['Escape', () => page.keyboard.press('Escape')],
    ];
    for (const [way, close] of ways) {
      await opener.click();
      await useWith.waitFor();
      await close();
      await useWith.waitFor({ state: 'detached' });
      await page.getByRole('heading', { name: 'Servers', level: 1 }).waitFor();
      // Focus is back on the button that opened it.
      await waitFor(async () => (await page.evaluate(() => document.activeElement?.textContent?.trim())) === 'Use with…', { what: `focus back after ${way}` });
    }
  });
});

function candidate(dialog: Locator, name: string): Locator {
  return dialog.locator('li.import-candidate', { has: dialog.page().locator('.import-candidate__name', { hasText: new RegExp(`^${name}$`) }) });
}
