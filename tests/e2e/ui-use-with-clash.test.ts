// "Use with…" never replaces a different server of the same name by default (issue 23, item 8):
// Claude Desktop's own `filesystem` (pointing at ~/private) stays unless the person picks
// "replace"; "add as filesystem-2" keeps both. The picker shows the servers' folders as the
// absolute paths they are (item 14).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession;
let target: string;
const theirs = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/private'] };

beforeAll(async () => {
  session = await startUiSession();
  target = path.join(tempDir('mcp-roots-clash-'), 'claude_desktop_config.json');
  fs.writeFileSync(target, `${JSON.stringify({ mcpServers: { filesystem: theirs } }, null, 2)}\n`);
  // The app's filesystem: the same package, other folders. Not started: only its config matters here.
  await session.host.addServer({
    name: 'filesystem',
    transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/code'], env: {} },
    enabled: false,
    sharing: true,
  });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

describe('Use with… and a name already taken', () => {
  it('asks add-or-replace with neither chosen, and adds as filesystem-2 when asked', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('button', { name: 'Use with…' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Use servers with another app' });
    const choice = dialog.getByRole('checkbox', { name: /filesystem/ });
    await choice.check();
    // Item 14: the folder argument reads as the absolute path it is.
    await dialog.getByText('npx -y @modelcontextprotocol/server-filesystem /home/me/code').waitFor();
    await dialog.getByRole('radio', { name: 'Another file' }).check();
    await dialog.getByLabel('Config file', { exact: true }).fill(target);
    await dialog.getByRole('button', { name: 'Preview' }).click();

    const clash = dialog.getByRole('group', { name: /Claude Desktop already has its own, different server named filesystem/ });
    await clash.waitFor();
    const add = clash.getByRole('radio', { name: 'Add this one as filesystem-2, beside it' });
    const replace = clash.getByRole('radio', { name: 'Replace Claude Desktop’s filesystem with this one' });
    expect([await add.isChecked(), await replace.isChecked()]).toEqual([false, false]);
    expect(await dialog.getByRole('button', { name: 'Write config' }).isDisabled()).toBe(true);
    await lookEverywhere(page, 'use-with-clash', { sizes: SCREEN_SIZES, inView: () => clash.scrollIntoViewIfNeeded() });

    await add.check();
    const diff = dialog.getByRole('list', { name: 'The servers section, before and after' });
    await diff.getByRole('listitem').filter({ hasText: 'added:' }).filter({ hasText: '"filesystem-2"' }).waitFor();
    const write = dialog.getByRole('button', { name: 'Write config' });
    await write.click();
    await dialog.getByRole('heading', { name: 'Wrote 1 entry' }).waitFor();
    const written = JSON.parse(fs.readFileSync(target, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> };
    expect(written.mcpServers.filesystem).toEqual(theirs);
    expect(written.mcpServers['filesystem-2']?.args.at(-1)).toBe('filesystem');
  });
});
