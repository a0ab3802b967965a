// The Folders tab says which servers each folder is shared with (issue 23, item 12), by name, and
// which of them are not told about it now, as the macOS Privacy pane lists each category's apps.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES, waitConnected } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession;

beforeAll(async () => {
  session = await startUiSession();
  const { host } = session;
  const work = tempDir('mcp-roots-folders-shared-');
  const folders = ['private', 'project-a', 'project-b'].map((name) => path.join(work, name));
  for (const folder of folders) fs.mkdirSync(folder);
  const roots = (await host.addRoots(folders)).added.map((root) => root.id);
  const everything = await host.addServer({ name: 'everything', transport: everythingServer(), enabled: true, sharing: true });
  const ids = [everything.id];
  // Switched off: granted, but not told about anything now.
  for (const name of ['github', 'notes', 'slack', 'memory']) {
    ids.push((await host.addServer({ name, transport: { type: 'stdio', command: 'npx', args: ['-y', `@modelcontextprotocol/server-${name}`], env: {} }, enabled: false, sharing: true })).id);
  }
  await host.setGrants(ids, [roots[1]!], true);
  await host.setGrants([everything.id, ids[1]!], [roots[2]!], true);
  await waitConnected(host, everything.id);
  await waitFor(() => host.getState().roots.every((root) => root.access.state === 'ok'), { what: 'folders probed' });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

describe('Folders tab', () => {
  it('names the servers each folder is shared with', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: /Folders/ }).click();
    const table = page.getByRole('table', { name: 'Folders' });
    const shared = (name: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}\\b`) }) }).getByRole('cell').nth(1);
    await shared('project-b').getByText('everything, github').waitFor();
    expect(await shared('project-b').innerText()).toMatch(/everything, github\s+2 of 5 servers · hidden from github now/);
    expect(await shared('project-a').innerText()).toMatch(/everything, github, notes and 2 more\s+5 of 5 servers · hidden from 4 now/);
    expect(await shared('private').innerText()).toBe('Nobody');
    await lookEverywhere(page, 'folders-shared-with', { sizes: SCREEN_SIZES });
  });
});
