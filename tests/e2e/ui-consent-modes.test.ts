// The consent dialog offers read-only, first, as the matrix does (issue 23, item 11): a server that
// asked is shared folders read-only unless the person picks read-write, and the hint never claims
// the OS enforces read-only for a server it is not confining.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES, waitConnected } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession;
let serverId: string;
let rootIds: string[];

beforeAll(async () => {
  session = await startUiSession();
  const { host } = session;
  const work = tempDir('mcp-roots-consent-modes-');
  const folders = ['project-a', 'project-b'].map((name) => path.join(work, name));
  for (const folder of folders) fs.mkdirSync(folder);
  const added = await host.addRoots(folders);
  rootIds = added.added.map((root) => root.id);
  serverId = (await host.addServer({ name: 'everything', transport: everythingServer(), enabled: true, sharing: true })).id;
  await waitConnected(host, serverId);
  await waitFor(() => host.getState().consentRequests.length === 1, { what: 'the folder request', timeoutMs: 15_000 });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

describe('consent dialog', () => {
  it('offers read-only first and chosen, and grants what is chosen', async () => {
    const { page, host } = session;
    await page.getByRole('region', { name: 'Folder requests' }).getByRole('button', { name: 'Choose folders…' }).click();
    const dialog = page.getByTestId('consent-dialog');
    const modes = dialog.getByRole('group', { name: 'It may' }).getByRole('radio');
    await modes.first().waitFor();
    expect(await modes.evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent))).toEqual(['Read only', 'Read and write']);
    expect(await modes.first().isChecked()).toBe(true);
    await dialog.getByRole('checkbox', { name: /project-a/ }).check();
    await lookEverywhere(page, 'consent-dialog-modes', { sizes: SCREEN_SIZES });
    await dialog.getByRole('button', { name: 'Share 1 folder' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitFor(() => host.getState().servers.find((server) => server.id === serverId)?.grantedRootIds.includes(rootIds[0]!), { what: 'the grant' });
    const server = host.getState().servers.find((candidate) => candidate.id === serverId)!;
    expect(server.readOnlyRootIds).toEqual([rootIds[0]]);
  });

  it('grants read-write when that is picked', async () => {
    const { page, host } = session;
    const summary = page.getByRole('region', { name: 'Folder requests' });
    // With its folder taken back and restarted, it asks again with nothing granted: a new request.
    await host.setGrants([serverId], [rootIds[0]!], false);
    await host.reconnect(serverId);
    await summary.getByRole('button', { name: 'Choose folders…' }).click();
    const dialog = page.getByTestId('consent-dialog');
    await dialog.getByRole('radio', { name: 'Read and write' }).check();
    await dialog.getByText('everything may change and delete files in these folders.').waitFor();
    await dialog.getByRole('checkbox', { name: /project-b/ }).check();
    await dialog.getByRole('button', { name: 'Share 1 folder' }).click();
    await waitFor(() => host.getState().servers.find((server) => server.id === serverId)?.grantedRootIds.includes(rootIds[1]!), { what: 'the grant' });
    expect(host.getState().servers.find((server) => server.id === serverId)!.readOnlyRootIds ?? []).toEqual([]);
  });
});
