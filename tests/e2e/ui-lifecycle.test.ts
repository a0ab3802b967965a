// A connection's state, shown where a person looks: a restart that waits for a running call says
// so (how many, and the most it waits), and the matrix says which grant changes restart which
// servers before they are made, from the host's own roots-change policy. Light and dark, 800x600
// and 1280x800.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';
import { cellName, lookEverywhere, SCREEN_SIZES, waitConnected } from './ui-checks.js';
import { repoRoot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  removeTempDirs();
});

const echo = (args: string[], env: Record<string, string> = {}): StdioTransportConfig => ({
  type: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures/roots-echo-server.mjs'), ...args],
  env,
});

describe('connection lifecycle in the UI', () => {
  it('the matrix says "applies by restarting" before a change; a restart that waits for a running call says so', async () => {
    // A drain held open for the whole look (its screenshots and scans take a while on a loaded machine).
    session = await startUiSession({ drainLimitMs: 120_000 });
    const { page, host } = session;
    const folder = tempDir('mcp-roots-lifecycle-');
    await host.addRoots([folder]);
    const rootName = path.basename(folder);
    // Takes its folders as arguments: any grant restarts it. The other re-reads them when told.
    const argued = await host.addServer({ name: 'argued', transport: echo(['follows', '${roots}']), enabled: true, sharing: true, sandbox: false });
    const told = await host.addServer({ name: 'told', transport: echo(['follows']), enabled: true, sharing: true, sandbox: false });
    await waitConnected(host, told.id);

    // Before any change: the policy's forecast reaches the page through the host state.
    const view = (id: string) => host.getState().servers.find((server) => server.id === id);
    expect(view(argued.id)?.changeRestarts).toEqual({ grant: 'arguments', revoke: undefined });
    expect(view(told.id)?.changeRestarts).toEqual({ grant: undefined, revoke: undefined });
    // The page opens on Folders or Access depending on what it first saw: go to the matrix.
    await page.getByRole('tab', { name: /Access/ }).click();
    const arguedHead = page.getByRole('columnheader').filter({ hasText: 'argued' });
    const marker = arguedHead.getByRole('img', { name: 'Restarts to apply' });
    await marker.waitFor();
    expect(await marker.getAttribute('title')).toMatch(/^Applies by restarting argued: /);
    expect(await page.getByRole('columnheader').filter({ hasText: 'told' }).getByRole('img', { name: 'Restarts to apply' }).count()).toBe(0);
    const arguedCell = page.getByRole('checkbox', { name: cellName(rootName, 'argued') });
    expect(await arguedCell.getAttribute('title')).toBe(
      'Applies by restarting argued: it gets its folders as arguments, read once at start. Its running calls finish first (at most 30 s).',
    );
    expect(await page.getByRole('checkbox', { name: cellName(rootName, 'told') }).getAttribute('title')).toBeNull();
    await lookEverywhere(page, 'lifecycle-matrix-restarts', { sizes: SCREEN_SIZES, inView: () => arguedHead.scrollIntoViewIfNeeded() });

    // The change, made: it restarts as said, and the log says why.
    await arguedCell.click();
    await waitConnected(host, argued.id);
    await waitFor(() => host.activity(argued.id).some((entry) => entry.message === 'Restarted with the new folders as arguments.'), { what: 'the restart in the log' });

    // A config change while a call runs: the detail says the restart waits for it.
    const release = path.join(tempDir('mcp-roots-release-'), 'release');
    const slow = host.callTool(told.id, 'slow', { release });
    slow.catch(() => undefined);
    await waitFor(() => view(told.id)?.status.lifecycle === 'ready', { what: 'told ready' });
    await host.updateServer(told.id, { transport: echo(['follows'], { CHANGED: '1' }) });
    await waitFor(() => view(told.id)?.status.lifecycle === 'draining', { what: 'the restart to wait for the call' });
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /told/ }).click();
    const detail = page.locator('.server-detail');
    await detail.getByText('Finishing calls', { exact: true }).waitFor();
    await detail.getByRole('status').getByText('Restarting when 1 running call finishes (at most 120 s).').waitFor();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /told/ }).getByText('Finishing calls').waitFor();
    await lookEverywhere(page, 'lifecycle-draining', { sizes: SCREEN_SIZES });
    expect(view(told.id)?.status.lifecycle).toBe('draining');

    // The call ends: the restart goes on, and a call made meanwhile is answered by the new process.
    const during = host.callTool(told.id, 'pid');
    fs.writeFileSync(release, '');
    expect(JSON.parse(toolText(await slow)) as { pid: number }).toHaveProperty('pid');
    expect(JSON.parse(toolText(await during)) as { pid: number }).toHaveProperty('pid');
    await waitFor(() => view(told.id)?.status.lifecycle === 'ready', {
      what: 'told ready again',
      timeoutMs: 30_000,
      explain: () => `${JSON.stringify(view(told.id)?.status)}\n${host.activity(told.id).map((entry) => `${entry.kind}: ${entry.message}`).join('\n')}`,
    });
    await detail.locator('.server-detail__heading').getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await detail.getByRole('status').count()).toBe(0);
  });
});
