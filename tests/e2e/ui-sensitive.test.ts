// A sensitive folder (here one that holds this app's data folder) gets the same plain warning in
// every way a grant is made (#30 item 2): a click in the matrix and the bulk Share ask first, and
// nothing is granted until "Share anyway"; the consent prompt says what is at stake where it is ticked.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, waitFor } from '../support/index.js';
import { cellName, lookEverywhere, SCREEN_SIZES } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession;

beforeAll(async () => {
  session = await startUiSession({ viewport: { width: 1280, height: 800 } });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

const stdio = { type: 'stdio' as const, command: 'node', args: ['-e', ''], env: {} };

describe('sensitive folders', () => {
  it('asks before a click or a bulk Share grants one, says what is at stake, and grants only on "Share anyway"', async () => {
    const { page, host, configDir } = session;
    // The folder that holds the data folder: granting it would show a server where every grant is kept.
    const holder = path.dirname(configDir);
    const { added } = await host.addRoots([holder]);
    const root = added[0]!;
    expect(host.getState().roots.find((view) => view.id === root.id)?.sensitive).toBe('app-data');
    const server = await host.addServer({ name: 'quiet', transport: stdio, enabled: false, sharing: true });
    const granted = () => host.model.current.grants[server.id]?.[root.id];

    await page.getByRole('tab', { name: /Access/ }).click();
    await page.getByRole('checkbox', { name: cellName(root.name, 'quiet') }).click();
    const ask = page.getByRole('alertdialog', { name: 'Share a sensitive folder?' });
    await ask.getByText('This is, or holds, the data folder of MCP Roots Manager', { exact: false }).waitFor();
    await lookEverywhere(page, 'matrix-sensitive-ask', { sizes: SCREEN_SIZES });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect(granted()).toBeUndefined();

    await page.getByRole('checkbox', { name: cellName(root.name, 'quiet') }).click();
    await page.getByRole('alertdialog', { name: 'Share a sensitive folder?' }).getByRole('button', { name: 'Share anyway' }).click();
    await waitFor(() => granted() === 'read-only', { what: 'the sensitive folder granted read-only after "Share anyway"' });

    // The bulk Share asks the same.
    await host.setGrants([server.id], [root.id], false);
    await waitFor(() => granted() === undefined, { what: 'the grant revoked again' });
    await page.getByRole('checkbox', { name: `Select folder ${root.name}` }).check();
    await page.getByRole('checkbox', { name: 'Select server quiet' }).check();
    await page.getByRole('group', { name: 'Change many at once' }).getByRole('button', { name: 'Share', exact: true }).click();
    const bulkAsk = page.getByRole('alertdialog', { name: 'Share a sensitive folder?' });
    await bulkAsk.getByText('(with quiet)', { exact: false }).waitFor();
    await bulkAsk.getByRole('button', { name: 'Cancel' }).click();
    expect(granted()).toBeUndefined();
  });
});
