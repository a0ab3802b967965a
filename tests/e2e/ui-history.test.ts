// The history across servers in a real browser: grants made by this app, the CLI and another
// process, named with their folders (~/…), modes and source; filtered by server, folder and kind;
// copied and exported as text and JSON; looked at in light and dark at 800x600 and 1280x800.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editRegistry } from '../support/host-harness.js';
import { runMain } from '../support/cli-in-process.js';
import { filesystemServer, removeTempDirs, waitFor } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES, waitConnected } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession | undefined;
const homeFolders: string[] = [];

afterEach(async () => {
  await session?.close();
  session = undefined;
  for (const dir of homeFolders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  removeTempDirs();
});

/** Below the home folder, so the history shows it as ~/… */
function homeFolder(name: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), `.mcp-roots-history-${name}-`)));
  homeFolders.push(dir);
  return dir;
}
const tilde = (dir: string) => `~/${path.relative(os.homedir(), dir)}`;

describe('history across servers', () => {
  it('names folders, modes and sources; filters by server, folder and kind; copies and exports', async () => {
    session = await startUiSession({ clipboard: true });
    const { page, host } = session;
    const [a, b] = [homeFolder('a'), homeFolder('b')];
    const { added } = await host.addRoots([a, b]);
    const [rootA] = added.map((root) => root.id);
    const filesystem = await host.addServer({ name: 'filesystem', transport: filesystemServer(), enabled: true, sharing: true });
    const notes = await host.addServer({ name: 'notes', transport: filesystemServer(), enabled: false, sharing: true });
    await waitConnected(host, filesystem.id);
    // Each change is seen by the app before the next is made: the app reads the file after the fact,
    // so two writes it sees at once would be one change (their net effect, by the last writer).
    const grantEntries = () => host.history().filter(({ entry }) => entry.kind === 'grants').length;
    const seen = (count: number) => waitFor(() => grantEntries() === count, { what: `grant entry ${count}`, timeoutMs: 10_000 });
    await host.setGrants([filesystem.id], [rootA!], true, 'read-write');
    await seen(1);
    expect((await runMain(['--config-dir', session.configDir, 'grant', '--read-only', 'filesystem', b])).code).toBe(0);
    await seen(2);
    // Without a mode the CLI grants read-only (least privilege, #30).
    expect((await runMain(['--config-dir', session.configDir, 'grant', 'notes', a])).code).toBe(0);
    await seen(3);
    await editRegistry(session.configDir, (editor) => editor.setGrants([notes.id], [rootA!], false));
    await seen(4);

    await page.getByRole('tab', { name: /History/ }).click();
    const list = page.getByRole('list', { name: 'History' });
    const row = (text: string) => list.getByRole('listitem').filter({ hasText: text });
    await row(`Granted ${tilde(b)} (read-only), from the CLI.`).waitFor();
    await expect(row(`Granted ${tilde(b)} (read-only), from the CLI.`).textContent()).resolves.toContain('filesystem');
    await row(`Granted ${tilde(a)} (read-write), from this app.`).waitFor();
    await row(`Granted ${tilde(a)} (read-only), from the CLI.`).filter({ hasText: 'notes' }).waitFor();
    await row(`Revoked ${tilde(a)} (read-only), from another process.`).filter({ hasText: 'notes' }).waitFor();

    await lookEverywhere(page, 'history', { sizes: SCREEN_SIZES });

    // By server: only notes' entries.
    await page.getByLabel('Server', { exact: true }).selectOption({ label: 'notes' });
    await waitFor(async () => (await row('filesystem').count()) === 0, { what: 'filesystem filtered out' });
    expect(await list.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    await page.getByLabel('Server', { exact: true }).selectOption({ label: 'All servers' });
    // By folder: b was only ever granted to filesystem, by the CLI.
    await page.getByLabel('Folder', { exact: true }).selectOption(b);
    await waitFor(async () => (await row('notes').count()) === 0, { what: 'entries without b filtered out' });
    expect(await row(`Granted ${tilde(b)} (read-only), from the CLI.`).count()).toBe(1);
    await page.getByLabel('Folder', { exact: true }).selectOption('');
    // By kind: changes only (grants and settings), no connects.
    await page.getByLabel('Show', { exact: true }).selectOption('changes');
    await waitFor(async () => (await list.getByRole('listitem').count()) === 4, { what: 'only the four grant changes' });
    await lookEverywhere(page, 'history-changes', { sizes: [SCREEN_SIZES[0]], noAxe: true });

    // Copy: what the filters show, oldest first, one line each.
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const lines = copied.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  filesystem  Grants  Granted ${escape(tilde(b))} \\(read-only\\), from the CLI\\.$`));

    // Export: the same text as a .txt download, and the entries as JSON.
    const [text] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export text' }).click()]);
    expect(text.suggestedFilename()).toMatch(/^mcp-roots-history-.*\.txt$/);
    expect(fs.readFileSync((await text.path())!, 'utf8')).toBe(`${copied}\n`);
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const exported = JSON.parse(fs.readFileSync((await json.path())!, 'utf8')) as { server: string; text: string; entry: { source?: string; grants?: unknown } }[];
    expect(exported.map((item) => [item.server, item.entry.source])).toEqual([
      ['filesystem', 'this-app'],
      ['filesystem', 'cli'],
      ['notes', 'cli'],
      ['notes', 'other'],
    ]);
    expect(exported[1]?.entry.grants).toEqual({ granted: [{ path: b, shown: tilde(b), mode: 'read-only' }], revoked: [], modeChanged: [] });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
