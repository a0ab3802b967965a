// The CLI's JSON tells time one way: ISO 8601 strings, never epoch milliseconds.
import { afterEach, describe, expect, it } from 'vitest';
import { withRegistrySession } from '../../../electron/cli/registry-session.js';
import { statusReport } from '../../../electron/cli/registry-view.js';
import { formatStatus } from '../../../electron/cli/format.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

afterEach(removeTempDirs);

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every number in a JSON value, with where it is. */
function numbers(value: unknown, at = '$'): [string, number][] {
  if (typeof value === 'number') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => numbers(item, `${at}[${index}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => numbers(item, `${at}.${key}`));
  return [];
}

describe('status report', () => {
  it('holds no numbers at all for roots and servers: access checks are ISO like addedAt', async () => {
    const configDir = tempDir('view-config-');
    const folder = tempDir('view-root-');
    const report = await withRegistrySession(configDir, async (session) => {
      await session.addRoots([folder]);
      const server = await session.addServer({ name: 'fs', transport: { type: 'stdio', command: 'node', args: [], env: { TOKEN: 'x' } }, enabled: true, sharing: true });
      await session.setGrants([server.id], [session.registry().roots[0]!.id], true);
      return statusReport(session);
    });
    expect(numbers(report)).toEqual([]);
    expect(report.roots[0]?.access.checkedAt).toMatch(ISO);
    expect(report.roots[0]?.addedAt).toMatch(ISO);
    expect(report.servers[0]).toMatchObject({ name: 'fs', transport: { env: { TOKEN: '••••••' } }, effectiveRootIds: [report.roots[0]?.id] });
    expect(report.servers[0]).not.toHaveProperty('status');
  });

  it('reports a proxied session with every time in ISO 8601', async () => {
    const configDir = tempDir('view-config-');
    const at = Date.UTC(2026, 10, 22, 12, 0, 0);
    const report = await withRegistrySession(configDir, async (session) =>
      statusReport(session, [
        {
          proxyPid: 4242,
          serverId: 's1',
          serverName: 'filesystem',
          startedAt: at,
          updatedAt: at + 1000,
          state: 'draining',
          draining: { calls: 1, until: at + 30_000, limitMs: 30_000, reason: 'Config changed.' },
          rootsPolicy: 'registry',
          host: { name: 'claude-ai', version: '0.14' },
          hostOffersRoots: false,
          lastRootsRequest: { at: at + 500, uris: ['file:///a'] },
          rootsRequestCount: 1,
          listChangedCount: 0,
          restartCount: 0,
          confinement: { state: 'enforced', kind: 'bwrap', network: true, grants: 'mounts', selfCheck: { verified: true, at: at + 700, detail: 'mounts checked' } },
          messagesFromHost: 3,
          messagesFromServer: 3,
        },
      ]),
    );
    // Counts and durations are numbers; a moment never is.
    expect(numbers(report.proxies).map(([where]) => where)).toEqual([
      '$[0].proxyPid',
      '$[0].draining.calls',
      '$[0].draining.limitMs',
      '$[0].rootsRequestCount',
      '$[0].listChangedCount',
      '$[0].restartCount',
    ]);
    expect(report.proxies[0]).toMatchObject({
      startedAt: '2026-11-22T12:00:00.000Z',
      updatedAt: '2026-11-22T12:00:01.000Z',
      lastRootsRequest: { at: '2026-11-22T12:00:00.500Z' },
      confinement: { state: 'enforced', selfCheck: { at: '2026-11-22T12:00:00.700Z', verified: true } },
      state: 'draining',
      draining: { calls: 1, until: '2026-11-22T12:00:30.000Z', limitMs: 30_000, reason: 'Config changed.' },
    });
    expect(formatStatus(report)).toContain(
      'filesystem for claude-ai 0.14 (pid 4242)  draining (Restarting when 1 running call finishes (at most 30 s)), sandbox enforced (bwrap, static protection: bind mounts, verified 2026-11-22T12:00:00.700Z)',
    );
  });
});
