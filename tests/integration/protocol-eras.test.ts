// Both protocol eras, one spawn per server, and the roots capability following the sharing switch.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { addConnectedServer, addCountedServer, addRoot, callText, startHost, stopHosts } from '../support/host-harness.js';
import {
  everythingServer,
  filesystemServer,
  modernFixtureServer,
  removeTempDirs,
  tempDir,
  waitFor,
} from '../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('protocol eras and connections', () => {
  it('a 2026-07-28 server gets its roots through the embedded input_required request', async () => {
    const host = await startHost();
    const folder = tempDir('modern-');
    const rootId = await addRoot(host, folder);
    // 2026-07-28 only: a server that also speaks 2025-11-25 is given that era (era-negotiation.test.ts).
    const modern = await addConnectedServer(host, 'modern', modernFixtureServer({ modernOnly: true }));
    const status = host.getState().servers.find((server) => server.id === modern)?.status;
    expect(status).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', eraReason: 'modern-only' });

    expect(JSON.parse(await callText(host, modern, 'list-roots'))).toEqual([]);
    await host.setGrants([modern], [rootId], true, 'read-write');
    // No list_changed exists in this era: a call carries the new answer (once its sandbox, restarted
    // with the new folder mounted, is back).
    const expected = [{ uri: pathToFileURL(folder).href, name: path.basename(folder) }];
    await waitFor(async () => JSON.stringify(JSON.parse(await callText(host, modern, 'list-roots'))) === JSON.stringify(expected), {
      what: 'the new folder on the next call',
    });
    const activity = host.activity(modern).map((entry) => entry.kind);
    expect(activity).toContain('roots-request');
    expect(activity).not.toContain('list-changed');
  });

  it('spawns each stdio server exactly once, including across the era probe and a refused 2025 handshake', async () => {
    const host = await startHost();
    const filesystem = await addCountedServer(host, 'filesystem', filesystemServer());
    const modern = await addCountedServer(host, 'modern', modernFixtureServer());
    const modernOnly = await addCountedServer(host, 'modern-only', modernFixtureServer({ modernOnly: true }));
    for (const { id } of [filesystem, modern, modernOnly]) {
      await waitFor(() => host.getState().servers.find((server) => server.id === id)?.status.state === 'connected', { what: 'connected' });
    }
    // Exercise every session so a lazily spawned sibling would have shown up.
    await callText(host, filesystem.id, 'list_allowed_directories');
    await callText(host, modern.id, 'list-roots');
    await callText(host, modernOnly.id, 'list-roots');
    expect(host.getState().servers.find((server) => server.id === modernOnly.id)?.status.era).toBe('modern');
    for (const { countFile } of [filesystem, modern, modernOnly]) {
      expect(fs.readFileSync(countFile, 'utf8').trim().split('\n')).toHaveLength(1);
    }
  });

  it('turning sharing off reconnects without the roots capability; on brings roots back', async () => {
    const host = await startHost();
    const folder = tempDir('shared-');
    const rootId = await addRoot(host, folder);
    const everything = await addConnectedServer(host, 'everything', everythingServer());
    await host.setGrants([everything], [rootId], true, 'read-write');
    const uri = pathToFileURL(folder).href;
    await waitFor(async () => (await callText(host, everything, 'get-roots-list')).includes(uri), { what: 'root visible' });

    await host.setSharing(everything, false);
    // The reconnect happens in the background; wait until the new session answers.
    const without = await waitFor(
      async () => {
        const text = await callText(host, everything, 'get-roots-list');
        return text.includes(uri) ? undefined : text;
      },
      { what: 'a session without roots' },
    );
    expect(host.activity(everything).some((entry) => entry.code === 'config-sharing-off' && entry.source === 'this-app')).toBe(true);
    expect(without.toLowerCase()).toContain('roots');
    expect(host.getState().servers[0]?.effectiveRootIds).toEqual([]);

    await host.setSharing(everything, true);
    await waitFor(async () => (await callText(host, everything, 'get-roots-list')).includes(uri), { what: 'root back' });
  });

  it('a server that cannot start reports an error and retries with backoff', async () => {
    const host = await startHost({ connection: { reconnectDelaysMs: [200, 400, 800] } });
    const server = await host.addServer({
      name: 'broken',
      transport: { type: 'stdio', command: path.join(tempDir('nothing-'), 'no-such-binary'), args: [], env: {} },
      enabled: true,
      sharing: true,
    });
    await waitFor(() => host.getState().servers.find((s) => s.id === server.id)?.status.state === 'error', {
      what: 'error state',
    });
    const status = host.getState().servers.find((s) => s.id === server.id)?.status;
    expect(status?.error).toBeTruthy();
    expect(status?.nextRetryAt).toBeGreaterThan(Date.now() - 1000);
    // Identical consecutive errors fold into one entry with a count.
    const attempts = () =>
      host
        .activity(server.id)
        .filter((entry) => entry.kind === 'error')
        .reduce((sum, entry) => sum + (entry.count ?? 1), 0);
    await waitFor(() => attempts() >= 3, {
      what: 'three attempts',
    });
  });
});
