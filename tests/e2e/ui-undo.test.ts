// Undo from a toast: a removed folder and a removed server come back with their ids and grants; a
// bulk revoke comes back except the grant the person revoked again after it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { axeViolations, describeViolations, seriousOnly } from './ui-checks.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession;

beforeAll(async () => {
  session = await startUiSession({ viewport: { width: 800, height: 600 } });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

const stdio = { type: 'stdio' as const, command: 'node', args: ['-e', ''], env: {} };

describe('undo from a toast', () => {
  it('brings back a removed folder, a removed server, and a bulk revoke except a later revoke', async () => {
    const { page, host } = session;
    const work = tempDir('mcp-roots-undo-');
    const folders = ['alpha', 'beta', 'gamma'].map((name) => path.join(work, name));
    for (const folder of folders) fs.mkdirSync(folder);
    const { added } = await host.addRoots(folders);
    const [alpha, beta, gamma] = added.map((root) => root.id) as [string, string, string];
    const one = await host.addServer({ name: 'one', transport: stdio, enabled: false, sharing: true });
    const two = await host.addServer({ name: 'two', transport: stdio, enabled: false, sharing: true });
    await host.setGrants([one.id, two.id], [alpha, beta, gamma], true, 'read-write');
    await host.setGrants([one.id], [alpha], true, 'read-only');
    const grantsBefore = structuredClone(host.model.current.grants);
    const toast = page.getByTestId('undo-toast');

    // A folder, removed and brought back: same id, same grants and modes.
    await page.getByRole('tab', { name: /Folders/ }).click();
    await page.getByRole('button', { name: 'Remove alpha' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await toast.getByText('Removed alpha.').waitFor();
    await waitFor(() => !host.getState().roots.some((root) => root.id === alpha), { what: 'alpha removed' });
    await screenshot(page, 'undo-toast-800x600');
    const serious = seriousOnly(await axeViolations(page));
    expect(serious, describeViolations(serious)).toEqual([]);
    await toast.getByRole('button', { name: 'Undo' }).click();
    await toast.waitFor({ state: 'detached' });
    await waitFor(() => host.getState().roots[0]?.id === alpha, { what: 'alpha back in its place' });
    expect(host.model.current.grants).toEqual(grantsBefore);

    // A server, removed and brought back from the keyboard.
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /^two/ }).click();
    await page.locator('.server-detail').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await toast.getByText('Removed server two.').waitFor();
    await toast.getByRole('button', { name: 'Undo' }).focus();
    await page.keyboard.press('Enter');
    await waitFor(() => host.getState().servers.some((server) => server.id === two.id), { what: 'two back' });
    expect(host.model.current.grants).toEqual(grantsBefore);

    // Many at once: every folder stopped for server one; then beta is shared and stopped again
    // elsewhere. Undo brings back alpha (read-only) and gamma, never beta.
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.getByRole('checkbox', { name: 'Select server one' }).check();
    const bulk = page.getByRole('group', { name: 'Change many at once' });
    await bulk.getByRole('button', { name: 'Stop sharing' }).click();
    await toast.getByText('Stopped 3 shares (folder and server pairs).').waitFor();
    await host.setGrants([one.id], [beta], true, 'read-write');
    await host.setGrants([one.id], [beta], false);
    await toast.getByRole('button', { name: 'Undo' }).click();
    await toast.waitFor({ state: 'detached' });
    await waitFor(() => Object.keys(host.model.current.grants[one.id] ?? {}).length === 2, { what: 'the undo' });
    expect(host.model.current.grants[one.id]).toEqual({ [alpha]: 'read-only', [gamma]: 'read-write' });
    expect(host.model.current.grants[two.id]).toEqual(grantsBefore[two.id]);
  });
});
