// Consent without a flood, in a real browser with real servers asking for roots: one summary for
// several requests, "Don't ask again" persisted per server, sharing turned off for a server that
// works without files, and "Not now" that does not come back when the server restarts.
import { afterEach, describe, expect, it } from 'vitest';
import { everythingServer, filesystemServer, removeTempDirs, waitFor } from '../support/index.js';
import { axeViolations, describeViolations, seriousOnly, waitConnected } from './ui-checks.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  removeTempDirs();
});

describe('folder requests', () => {
  it('shows one summary for three servers, and each answer sticks', async () => {
    session = await startUiSession({ viewport: { width: 800, height: 600 } });
    const { page, host } = session;
    const names = ['search', 'notes', 'filesystem'];
    const servers = [
      await host.addServer({ name: names[0]!, transport: everythingServer(), enabled: true, sharing: true }),
      await host.addServer({ name: names[1]!, transport: everythingServer(), enabled: true, sharing: true }),
      await host.addServer({ name: names[2]!, transport: filesystemServer(), enabled: true, sharing: true }),
    ];
    for (const server of servers) await waitConnected(host, server.id);
    await waitFor(() => host.getState().consentRequests.length === 3, { what: 'three requests', timeoutMs: 15_000 });

    const summary = page.getByRole('region', { name: 'Folder requests' });
    await summary.getByText('3 servers asked for folders').waitFor();
    // One banner, collapsed: it names the servers and does not push the screen away.
    expect(await page.getByTestId('consent-summary').count()).toBe(1);
    const box = await summary.boundingBox();
    expect(box!.height).toBeLessThan(140);
    await screenshot(page, 'consent-summary-collapsed');
    await summary.getByRole('button', { name: 'Review' }).click();
    const item = (name: string) => summary.getByRole('group', { name: `Folder request from ${name}` });
    await item('search').waitFor();
    await screenshot(page, 'consent-summary-open');
    const serious = seriousOnly(await axeViolations(page));
    expect(serious, describeViolations(serious)).toEqual([]);

    // "Don't ask again" is kept in the registry: the server asks again after a restart, silently.
    await item('search').getByRole('button', { name: 'Don’t ask again' }).click();
    await item('search').waitFor({ state: 'detached' });
    expect(host.registrySnapshot.servers.find((server) => server.id === servers[0]!.id)?.askForFolders).toBe(false);

    // A server that works without files: sharing off, and it is no longer offered roots at all.
    await item('notes').getByRole('button', { name: 'Turn sharing off' }).click();
    await item('notes').waitFor({ state: 'detached' });
    expect(host.getState().servers.find((server) => server.id === servers[1]!.id)?.sharing).toBe(false);

    // "Not now": gone, and not back when the server restarts and asks again.
    await item('filesystem').getByRole('button', { name: 'Not now' }).click();
    await summary.waitFor({ state: 'detached' });
    const asked = () => host.activity(servers[2]!.id).filter((entry) => entry.kind === 'roots-request').length;
    const before = asked();
    await host.reconnect(servers[2]!.id);
    await host.reconnect(servers[0]!.id);
    await waitFor(() => asked() > before, { what: 'filesystem to ask again', timeoutMs: 15_000 });
    await waitConnected(host, servers[0]!.id);
    expect(host.getState().consentRequests).toEqual([]);
    expect(await page.getByTestId('consent-summary').count()).toBe(0);
  });
});
