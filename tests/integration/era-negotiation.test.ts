// Which protocol era each real server gets, and why (electron/host/connections/era-choice.ts): folders first.
// And a healthy connection logs no error, however slowly its server starts.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { addConnectedServer, addRoot, callText, startHost, stopHosts } from '../support/host-harness.js';
import { everythingServer, filesystemServer, modernFixtureServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Angular CLI's `ng mcp` in miniature: v2 SDK, both eras, roots only through the classic request. */
function classicRootsServer(): StdioTransportConfig {
  return { type: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'tests/fixtures/classic-roots-v2-server.mjs')], env: {}, cwd: repoRoot };
}

interface ClassicState {
  era: string;
  asked: number;
  uris: string[] | null;
  error: string | null;
}

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

// The choice is made from the server's answer to the 2026-07-28 probe. These servers answer it as
// soon as they are up: a long wait costs nothing and keeps the choice the same at any load (at a load
// of 25 the answer can come after the default 3 s, and the reason is then rightly "no answer in time").
const answeredProbe = { connection: { probeTimeoutMs: 60_000 } };

describe('era choice', () => {
  it('gives a both-era server that reads roots only through the classic request 2025-11-25, and its folders, while sharing is on', async () => {
    const host = await startHost(answeredProbe);
    const [a, b] = [tempDir('classic-a-'), tempDir('classic-b-')];
    const [rootA, rootB] = [await addRoot(host, a), await addRoot(host, b)];
    const id = await addConnectedServer(host, 'ng-mcp-like', classicRootsServer());
    const status = () => host.getState().servers.find((server) => server.id === id)?.status;
    expect(status()).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', eraReason: 'folders-first' });
    const told = async () => JSON.parse(await callText(host, id, 'last-roots')) as ClassicState;

    await host.setGrants([id], [rootA], true);
    await waitFor(async () => JSON.stringify((await told()).uris) === JSON.stringify([pathToFileURL(a).href]), { what: 'the first grant' });
    await host.setGrants([id], [rootB], true);
    const both = await waitFor(async () => {
      const state = await told();
      return state.uris?.length === 2 ? state : undefined;
    }, { what: 'the second grant' });
    expect(both.uris?.sort()).toEqual([pathToFileURL(a).href, pathToFileURL(b).href].sort());
    expect(both.error).toBeNull();

    // Told no folders, the same server gets the newest era it offers.
    await host.setSharing(id, false);
    await waitFor(() => status()?.state === 'connected' && status()?.era === 'modern', { what: 'a 2026-07-28 session without roots' });
    expect(status()?.eraReason).toBe('newest');
  });

  it('asks again after a slow start left the probe unanswered: the next session gets the era the server offers', { timeout: 180_000 }, async () => {
    // A server that reads nothing for its first 25 s, far longer than the probe's 8 s wait (a normal
    // start of this fixture takes 0.3-3 s, depending on the load): that probe goes unanswered.
    const host = await startHost({ connection: { probeTimeoutMs: 8_000, connectTimeoutMs: 60_000 } });
    const slowOnce = path.join(tempDir('slow-once-'), 'started');
    const transport = { ...modernFixtureServer(), env: { SLOW_START_ONCE: slowOnce, SLOW_START_MS: '25000' } };
    // Told no folders: a server that offers 2026-07-28 gets it (the newest era). Unconfined, so it
    // can leave its mark outside any grant.
    const { id } = await host.addServer({ name: 'slow-once', transport, enabled: true, sharing: false, sandbox: false });
    const status = () => host.getState().servers.find((server) => server.id === id)?.status;
    await waitFor(() => status()?.state === 'connected', {
      what: 'the slow first session',
      timeoutMs: 90_000,
      explain: () => JSON.stringify([status(), host.activity(id).map((entry) => entry.message)]),
    });
    expect(status()?.eraReason).toBe('probe-unanswered');
    await host.reconnect(id);
    await waitFor(() => status()?.state === 'connected' && status()?.eraReason !== 'probe-unanswered', {
      what: 'the next session to probe again',
      timeoutMs: 60_000,
      explain: () => JSON.stringify([status(), host.activity(id).map((entry) => entry.message)]),
    });
    expect(status()).toMatchObject({ era: 'modern', eraReason: 'newest' });
  });

  it('gives a both-era input_required server 2025-11-25 too: the SDK turns its round into the classic request', async () => {
    const host = await startHost(answeredProbe);
    const folder = tempDir('shim-');
    const rootId = await addRoot(host, folder);
    const id = await addConnectedServer(host, 'both-eras', modernFixtureServer());
    expect(host.getState().servers.find((server) => server.id === id)?.status).toMatchObject({ era: 'legacy', eraReason: 'folders-first' });
    await host.setGrants([id], [rootId], true);
    const expected = JSON.stringify([{ uri: pathToFileURL(folder).href, name: path.basename(folder) }]);
    await waitFor(async () => (await callText(host, id, 'list-roots')) === expected, { what: 'the folder through the classic request' });
  });
});

describe('no false errors', () => {
  const healthy: [string, () => StdioTransportConfig, string][] = [
    ['server-filesystem', filesystemServer, 'list_allowed_directories'],
    ['server-everything', everythingServer, 'get-roots-list'],
    ['the 2026-07-28 fixture (both eras)', () => modernFixtureServer(), 'list-roots'],
    ['the 2026-07-28 fixture (2026-07-28 only)', () => modernFixtureServer({ modernOnly: true }), 'list-roots'],
  ];

  // A probe timeout of 1 ms stands for a slow start (npx, a loaded machine): every server answers
  // the probe after the wait, which the SDK's own negotiation reported as an error.
  for (const probeTimeoutMs of [3000, 1]) {
    it(`logs no error on healthy connections (era probe wait ${probeTimeoutMs} ms)`, async () => {
      const host = await startHost({ connection: { probeTimeoutMs } });
      const folder = tempDir('healthy-');
      const rootId = await addRoot(host, folder);
      const ids: string[] = [];
      for (const [name, config] of healthy) ids.push(await addConnectedServer(host, name, config()));
      await host.setGrants(ids, [rootId], true);
      for (const [i, [name, , tool]] of healthy.entries()) {
        const id = ids[i] as string;
        // server-filesystem lists paths, the others URIs.
        await waitFor(
          async () => {
            const text = await callText(host, id, tool);
            return text.includes(pathToFileURL(folder).href) || text.includes(folder);
          },
          { what: `${name} to see the folder` },
        );
        const errors = host.activity(id).filter((entry) => entry.kind === 'error');
        expect(errors, `${name}: ${JSON.stringify(errors)}`).toEqual([]);
      }
      const modernOnly = host.getState().servers.find((server) => server.id === ids[3])?.status;
      expect(modernOnly).toMatchObject({ era: 'modern', eraReason: 'modern-only' });
      if (probeTimeoutMs === 1) {
        const slow = host.activity(ids[0] as string).find((entry) => entry.message.includes('answered the 2026-07-28 probe after'));
        expect(slow?.kind).toBe('info');
      }
    });
  }
});
