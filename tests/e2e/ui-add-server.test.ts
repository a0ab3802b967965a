// Adding a server the way people copy it, in a real browser: a whole command line pasted into
// Command is split with shell quoting (shown, undoable), and a pasted mcpServers snippet fills the
// form or imports several servers. The registry, and a real server connecting, are the truth.
import type { Locator } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { FILESYSTEM_ENTRY, removeTempDirs, waitFor } from '../support/index.js';
import { axeViolations, describeViolations, lookEverywhere, SCREEN_SIZES, seriousOnly, waitConnected } from './ui-checks.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  removeTempDirs();
});

/** A real paste event, as the browser fires it for Ctrl+V, with this text on the clipboard. */
async function paste(field: Locator, text: string): Promise<void> {
  await field.focus();
  await field.evaluate((element, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

describe('adding a server by pasting', () => {
  it('splits a pasted command line into command, arguments and variables, with undo', async () => {
    session = await startUiSession();
    const { page, host } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    const command = form.getByLabel('Command', { exact: true });
    const args = form.getByLabel('Arguments', { exact: true });

    // A pipe has no meaning without a shell: refused by name, nothing filled.
    await paste(command, 'npx -y @modelcontextprotocol/server-filesystem | tee log.txt');
    await form.getByText('so | cannot be used here').waitFor();
    expect(await command.inputValue()).toBe('');

    const line = `GREETING="hello world" "${process.execPath}" "${FILESYSTEM_ENTRY}"`;
    await paste(command, line);
    expect(await command.inputValue()).toBe(process.execPath);
    expect(await args.inputValue()).toBe(FILESYSTEM_ENTRY);
    const notice = form.getByRole('status').filter({ hasText: 'Split the command line' });
    await notice.getByText(`${process.execPath} with 1 argument`).waitFor();
    await notice.getByText('The variable GREETING went to the environment variables').waitFor();
    expect(await form.getByLabel('Variable name 1').inputValue()).toBe('GREETING');
    await screenshot(page, 'add-server-split');
    const serious = seriousOnly(await axeViolations(page));
    expect(serious, describeViolations(serious)).toEqual([]);

    // Undo gives back the empty form; pasting again splits again.
    await notice.getByRole('button', { name: 'Undo' }).click();
    expect(await command.inputValue()).toBe('');
    await paste(command, line);

    await form.getByLabel('Name', { exact: true }).fill('filesystem');
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.waitFor({ state: 'detached' });
    const added = host.getState().servers.find((server) => server.name === 'filesystem')!;
    expect(host.registrySnapshot.servers.find((server) => server.id === added.id)?.transport).toMatchObject({
      type: 'stdio',
      command: process.execPath,
      args: [FILESYSTEM_ENTRY],
    });
    expect(added.transport).toMatchObject({ env: { GREETING: expect.any(String) } });
    // And it runs: the split was right.
    await waitConnected(host, added.id);
  });

  it('fills the form from one pasted entry, and imports several from a pasted mcpServers snippet', async () => {
    session = await startUiSession();
    const { page, host } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });

    // One entry, as a README shows it (no outer braces, trailing comma): the form is filled in.
    await paste(form.getByLabel('Name', { exact: true }), `"fs": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(FILESYSTEM_ENTRY)}] },`);
    await form.getByText('Filled in from the pasted config.').waitFor();
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('fs');
    expect(await form.getByLabel('Command', { exact: true }).inputValue()).toBe(process.execPath);
    expect(await form.getByLabel('Arguments', { exact: true }).inputValue()).toBe(FILESYSTEM_ENTRY);

    // Two servers, one with a secret: the import preview takes over, secrets masked.
    const snippet = JSON.stringify({
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_pasted_never_shown' } },
        postgres: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/mydb'] },
      },
    });
    await paste(form.getByLabel('Name', { exact: true }), snippet);
    const dialog = page.getByRole('dialog', { name: 'Import servers from other apps' });
    await dialog.getByRole('heading', { name: '2 servers found' }).waitFor();
    await dialog.getByRole('checkbox', { name: 'Import github from the pasted config' }).waitFor();
    expect(await page.content()).not.toContain('ghp_pasted_never_shown');
    await screenshot(page, 'add-server-snippet-import');
    await dialog.getByRole('button', { name: 'Import 2 servers' }).click();
    await dialog.getByRole('heading', { name: 'Imported 2 servers' }).waitFor();
    await waitFor(() => host.getState().servers.length === 2, { what: 'two servers' });
    expect(host.getState().servers.map((server) => server.name).sort()).toEqual(['github', 'postgres']);
    expect(host.getState().servers.every((server) => server.grantedRootIds.length === 0)).toBe(true);
    // Not asked to start them: they wait, switched off, for the person to look first.
    expect(host.getState().servers.map((server) => server.enabled)).toEqual([false, false]);
  });

  // Issue 23 item 9: typed (not pasted), it was saved as typed and the server failed for ever.
  it('refuses a typed command line until it is split, showing the split first', async () => {
    session = await startUiSession();
    const { page, host } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    const command = form.getByLabel('Command', { exact: true });
    await form.getByLabel('Name', { exact: true }).fill('filesystem');
    await command.pressSequentially(`${process.execPath} ${FILESYSTEM_ENTRY}`);
    // The split it would make, before it is made.
    const offer = form.getByRole('status').filter({ hasText: 'This looks like a whole command line' });
    const words = offer.getByRole('list', { name: 'The command and its arguments' }).getByRole('listitem');
    await words.first().waitFor();
    expect(await words.allTextContents()).toEqual([process.execPath, FILESYSTEM_ENTRY]);

    await form.getByRole('button', { name: 'Add server' }).click();
    await form.getByText('Not saved: this is a whole command line').waitFor();
    expect(host.getState().servers).toEqual([]);
    await lookEverywhere(page, 'add-server-unsplit', { sizes: SCREEN_SIZES, inView: () => offer.scrollIntoViewIfNeeded() });

    await offer.getByRole('button', { name: 'Split into command and arguments' }).click();
    expect(await command.inputValue()).toBe(process.execPath);
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.waitFor({ state: 'detached' });
    const added = host.getState().servers.find((server) => server.name === 'filesystem')!;
    expect(added.transport).toMatchObject({ type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY] });
    await waitConnected(host, added.id);
  });

  it('says a new server gets no folder where one is added, not where one is edited (#30 item 11)', async () => {
    session = await startUiSession();
    const { page, host } = session;
    await host.addServer({ name: 'kept', transport: { type: 'stdio', command: 'node', args: ['-e', ''], env: {} }, enabled: false, sharing: true });
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.locator('.server-detail').getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit kept' });
    await edit.getByRole('textbox', { name: 'Name' }).waitFor();
    expect(await edit.getByText('A new server is given no folder until you share one with it.').count()).toBe(0);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Add server', exact: true }).first().click();
    await page.getByRole('dialog', { name: 'Add a server' }).getByText('A new server is given no folder until you share one with it.').waitFor();
  });
});
