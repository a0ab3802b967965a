// Folder repairs and proxied servers in the browser UI: "Check again" and "Use new location" on
// folders that went wrong on disk, reasons in the person's language, and a server that another app
// runs through a real `mcp-roots proxy` process: its session, and the matrix's "applies by
// restarting" from the proxy's own forecast.
import { Client } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import { filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import type { RestartWhy } from '../../shared/domain.js';
import { cellName, filesystemSees, lookEverywhere, SCREEN_SIZES, waitConnected } from './ui-checks.js';
import { repoRoot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  removeTempDirs();
});

async function shoot(s: UiSession, name: string): Promise<void> {
  await lookEverywhere(s.page, name);
}

describe('folder repairs', () => {
  it('confirms a folder swapped for a symlink, re-checks a missing one, and says why in German', async () => {
    session = await startUiSession();
    const { page, host } = session;
    const work = tempDir('mcp-roots-repair-');
    const swapped = path.join(work, 'swapped');
    const gone = path.join(work, 'gone');
    const elsewhere = path.join(work, 'elsewhere');
    for (const folder of [swapped, gone, elsewhere]) fs.mkdirSync(folder);
    await host.addRoots([swapped, gone]);
    const fsServer = await host.addServer({ name: 'files', transport: filesystemServer(), enabled: true, sharing: true });
    const ids = host.getState().roots.map((root) => root.id);
    await host.setGrants([fsServer.id], ids, true);
    await waitConnected(host, fsServer.id);

    // The folder is moved away and a symlink to somewhere else takes its place: hidden until confirmed.
    fs.renameSync(swapped, path.join(work, 'swapped-old'));
    fs.symlinkSync(elsewhere, swapped);
    fs.rmSync(gone, { recursive: true });

    await page.getByRole('tab', { name: /Folders/ }).click();
    const swappedRow = page.getByRole('row', { name: /swapped/ });
    await swappedRow.getByText('Target changed').waitFor();
    await swappedRow.getByText(`It now leads to ${fs.realpathSync(elsewhere)}.`, { exact: false }).waitFor();
    const goneRow = page.getByRole('row', { name: /gone/ });
    await goneRow.getByText('The folder was deleted, renamed or unmounted.').waitFor();
    // A failure here must explain itself: what the host says of the server, and its activity.
    const story = () => {
      const status = host.getState().servers.find((server) => server.id === fsServer.id)?.status;
      const log = host.activity(fsServer.id).map((entry) => `  ${new Date(entry.at).toISOString()} ${entry.kind}: ${entry.message}`);
      return `status: ${JSON.stringify(status)}\nactivity:\n${log.join('\n')}`;
    };
    await waitFor(async () => (await filesystemSees(host, fsServer.id)).length === 0, { what: 'the server to lose both folders', timeoutMs: 60_000, explain: story });
    await page.getByRole('button', { name: 'Check all again' }).waitFor();
    await shoot(session, 'roots-repairs');

    // The same reasons in German.
    await page.getByLabel('Language').selectOption('de');
    await goneRow.getByText('Der Ordner wurde gelöscht, umbenannt oder ausgehängt.').waitFor();
    await swappedRow.getByText(`Er führt jetzt nach ${fs.realpathSync(elsewhere)}.`, { exact: false }).waitFor();
    await page.getByLabel('Sprache').selectOption('system');

    // Confirming the new location shows the folder to the server again, at its new canonical path.
    await page.getByRole('button', { name: 'Use new location for swapped' }).click();
    await swappedRow.getByText('Reachable').waitFor();
    // It had lost its last folder, so it was restarted; its new session asks for the list again.
    const target = fs.realpathSync(elsewhere);
    await waitFor(async () => (await filesystemSees(host, fsServer.id)).join() === target, { what: 'the server to see the new location', explain: story });

    // The missing folder comes back; "Check again" probes it at once.
    fs.mkdirSync(gone);
    // The host's own re-check may find it first, and the button goes with the problem: either way
    // the row must come back to Reachable (a click on a button that left is not a failure).
    const reachable = goneRow.getByText('Reachable');
    await Promise.race([page.getByRole('button', { name: 'Check again: gone' }).click().catch(() => undefined), reachable.waitFor()]);
    await reachable.waitFor();
    await waitFor(async () => (await filesystemSees(host, fsServer.id)).length === 2, { what: 'the restored folder to reach the server', explain: story });
    await expect(page.getByRole('button', { name: 'Check all again' }).count()).resolves.toBe(0);
  });
});

const WHY: Partial<Record<RestartWhy, string>> = {
  forget: 'an empty list alone does not take its last folder away everywhere',
  mounts: 'its sandbox holds exactly its granted folders, fixed at start',
};

function appliesByRestarting(why: RestartWhy | undefined): string {
  return `Applies by restarting proxied-files: ${why ? WHY[why] : '(no restart)'}. Its running calls finish first (at most 30 s).`;
}

describe('proxied servers', () => {
  it('shows a server that another app runs through mcp-roots proxy, with its host, last answer and what a change would restart', async () => {
    // This app starts none of its servers: what it says of this one comes from the proxy alone.
    session = await startUiSession({ runServers: false });
    const { page, host, configDir } = session;
    const folder = tempDir('mcp-roots-proxied-');
    await host.addRoots([folder]);
    const server = await host.addServer({ name: 'proxied-files', transport: filesystemServer(), enabled: true, sharing: true });
    await host.setGrants([server.id], host.getState().roots.map((root) => root.id), true);

    // Another app (this SDK client, with no roots of its own) launches the real CLI's proxy.
    const client = new Client({ name: 'Cursor (e2e)', version: '3.1' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 15_000 } } });
    await client.connect(
      new InPlaceStdioClientTransport({
        command: process.execPath,
        args: [path.join(repoRoot, 'bin/mcp-roots.js'), 'proxy', '--config-dir', configDir, 'proxied-files'],
        cwd: repoRoot,
        stderr: 'pipe',
      }),
    );
    try {
      await page.getByRole('tab', { name: /Servers/ }).click();
      await page.getByRole('navigation', { name: 'Servers' }).getByText('Running in 1 other app').waitFor({ timeout: 15_000 });
      const item = page.getByRole('listitem', { name: 'Proxy session in Cursor (e2e) 3.1' });
      await item.getByText('Connected').waitFor();
      await item.getByText(pathToFileURL(fs.realpathSync(folder)).href, { exact: false }).waitFor({ timeout: 15_000 });
      await item.getByText('this app (the host’s own roots are ignored)').waitFor();
      // Its own process, its own sandbox: the session's badge reads what the proxy reports.
      await waitFor(() => host.getState().proxies[0]?.confinement !== undefined, { what: 'the proxy to report how its server runs' });
      const reported = host.getState().proxies[0]!.confinement!.state;
      await item.locator(`[data-testid="confinement-badge"][data-confinement="${reported}"]`).waitFor();
      await shoot(session, 'servers-proxied');

      // The matrix marks it ↻ from the proxy's forecast (its status file): with its one folder, a
      // revoke restarts it, to forget the folder or for new mounts, as the sandbox here allows.
      const forecast = await waitFor(() => host.getState().servers.find((view) => view.id === server.id)?.changeRestarts, {
        what: 'the proxy’s forecast in the app state',
      });
      expect(forecast).toEqual(host.getState().proxies[0]?.changeRestarts);
      expect(['forget', 'mounts']).toContain(forecast.revoke);
      await page.getByRole('tab', { name: /Access/ }).click();
      const head = page.getByRole('columnheader').filter({ hasText: 'proxied-files' });
      const marker = head.getByRole('img', { name: 'Restarts to apply' });
      await marker.waitFor();
      expect(await marker.getAttribute('title')).toBe(appliesByRestarting(forecast.grant ?? forecast.revoke));
      const cell = page.getByRole('checkbox', { name: cellName(path.basename(folder), 'proxied-files') });
      expect(await cell.getAttribute('title')).toBe(appliesByRestarting(forecast.revoke));
      await lookEverywhere(page, 'access-proxied-restarts', { sizes: SCREEN_SIZES, inView: () => head.scrollIntoViewIfNeeded() });
    } finally {
      await client.close();
    }
    // Nothing runs it any more: nothing restarts, so nothing is said.
    await page.getByRole('columnheader').filter({ hasText: 'proxied-files' }).getByRole('img', { name: 'Restarts to apply' }).waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByText('Running in 1 other app').waitFor({ state: 'detached', timeout: 10_000 });
  });
});
