// What a server that floods the app gets, through real processes: read at its rate, then paused
// (its requests answered late, never dropped), then its session closed and its restart held off;
// and what a busy but well-behaved server gets: nothing of that. How much a flood delays another
// server's update is the benchmark's (section 10); here only the facts.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_INBOUND_LIMITS, type InboundLimits } from '../../electron/host/launch/inbound-limits.js';
import type { RootsHost } from '../../electron/host/roots-host.js';
import { addConnectedServer, addRoot, callText, startHost, stopHosts } from '../support/host-harness.js';
import { allowedDirectories, filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';

const fixture = path.resolve(import.meta.dirname, '../fixtures/hostile-server.mjs');
const hostile = (mode: string, ...rest: string[]) => ({ type: 'stdio' as const, command: process.execPath, args: [fixture, mode, ...rest], env: {} });

/** The app's limits with short penalties, so that a test sees them all in seconds. */
const quickPenalties: InboundLimits = { ...DEFAULT_INBOUND_LIMITS, penalties: { afterMs: 400, pausesMs: [300, 600] } };

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

function statusOf(host: RootsHost, id: string) {
  return host.getState().servers.find((server) => server.id === id)?.status;
}

async function neighbourSees(host: RootsHost, id: string, folder: string): Promise<void> {
  await waitFor(async () => allowedDirectories(await callText(host, id, 'list_allowed_directories')).includes(folder), {
    what: `the neighbour sees ${folder}`,
  });
}

describe('inbound limits: a server that floods', () => {
  it('is paused, then its session is closed and its restart held off, all said in its activity and status; the neighbour still gets its update', async () => {
    const host = await startHost({ connection: { inboundLimits: quickPenalties, floodRestartDelaysMs: [60_000] } });
    const first = tempDir('neighbour-');
    const neighbour = await addConnectedServer(host, 'neighbour', filesystemServer());
    await host.setGrants([neighbour], [await addRoot(host, first)], true);
    await neighbourSees(host, neighbour, first);

    const id = await addConnectedServer(host, 'flood', hostile('flood-roots-max'));
    await waitFor(() => statusOf(host, id)?.limited?.kind === 'message-rate', { what: 'the flood held to its rate', timeoutMs: 60_000 });
    // The neighbour's grant changes while the flood is read, paused and closed.
    const second = tempDir('neighbour-more-');
    await host.setGrants([neighbour], [await addRoot(host, second)], true);
    await neighbourSees(host, neighbour, second);

    await waitFor(() => statusOf(host, id)?.limited?.kind === 'flood', { what: 'the session closed for flooding', timeoutMs: 60_000 });
    // Not shown connected once its session is being closed, even before its process has exited.
    expect(statusOf(host, id)?.state).toBe('disconnected');
    const limited = statusOf(host, id)?.limited;
    expect(limited?.event).toEqual({ code: 'flood-closed', params: { rate: 200, count: 2 } });
    await waitFor(() => statusOf(host, id)?.nextRetryAt !== undefined, { what: 'the restart scheduled' });
    const status = statusOf(host, id);
    expect(status?.state).not.toBe('connected');
    expect(status?.pid).toBeUndefined();
    // The restart waits the flood delay (60 s here), not the crash backoff's first 0.5 s.
    expect((status?.nextRetryAt as number) - (limited?.at as number)).toBeGreaterThanOrEqual(60_000);
    // A grant starts a failed server at once (the roots-change policy's 'retry'), but not one held
    // off for flooding: the grant is decided by the time setGrants answers, and changed nothing.
    await host.setGrants([id], [await addRoot(host, tempDir('flooder-grant-'))], true);
    expect(host.activity(id).map((entry) => entry.code)).not.toContain('restart-retry');
    expect(statusOf(host, id)?.nextRetryAt).toBe(status?.nextRetryAt);

    const messages = host.activity(id).map((entry) => entry.message);
    expect(messages.filter((text) => /not read at all for 0\.3 s \(pause 1 of 2\)/.test(text))).toHaveLength(1);
    expect(messages.filter((text) => /not read at all for 0\.6 s \(pause 2 of 2\)/.test(text))).toHaveLength(1);
    expect(host.activity(id).map((entry) => entry.code)).toContain('closed-for-flooding');
    // The requests read just before the end were answered before the session closed, not failed.
    expect(messages.filter((text) => /Not connected/.test(text))).toEqual([]);
    await host.setEnabled(id, false);
  });

  it('a burst it can work off is answered in full, late, after a pause', async () => {
    // Found flooding after 1 s over its rate, then paused 0.3 s up to three times before being closed.
    const inboundLimits = { ...DEFAULT_INBOUND_LIMITS, penalties: { afterMs: 1000, pausesMs: [300, 300, 300] } };
    const host = await startHost({ connection: { inboundLimits } });
    // 550 requests at 5,000 a second: 200 read at once, then 200 a second with a pause.
    const id = await addConnectedServer(host, 'burst', hostile('flood-roots', '0', '550'));
    await waitFor(
      async () => {
        const flood = JSON.parse(await callText(host, id, 'flood')) as { sent: number; answered: number; done: boolean };
        return flood.done && flood.answered === flood.sent;
      },
      { what: 'every request of the burst answered', timeoutMs: 90_000 },
    );
    expect(host.activity(id).some((entry) => /not read at all for 0\.3 s/.test(entry.message))).toBe(true);
    // Paused, never closed: the session it started with is the one that answered.
    expect(statusOf(host, id)?.limited?.kind).toBe('message-rate');
    expect(host.activity(id).filter((entry) => entry.kind === 'connect')).toHaveLength(1);
  });
});

describe('inbound limits: a server that asks often, within its rate', () => {
  it('is never held back, and every request is answered', async () => {
    const host = await startHost({ connection: { inboundLimits: quickPenalties } });
    // 100 roots/list a second for 3 s: half the rate, for seven times as long as it takes to be found flooding.
    const id = await addConnectedServer(host, 'often', hostile('roots-often', '3000'));
    await waitFor(
      async () => {
        const asked = JSON.parse(await callText(host, id, 'flood')) as { sent: number; answered: number; done: boolean };
        return asked.done && asked.answered === asked.sent && asked.sent > 0;
      },
      { what: 'every request answered', timeoutMs: 60_000 },
    );
    expect(statusOf(host, id)?.limited).toBeUndefined();
    expect(host.activity(id).filter((entry) => entry.kind === 'error')).toEqual([]);
    expect(statusOf(host, id)?.state).toBe('connected');
  });
});
