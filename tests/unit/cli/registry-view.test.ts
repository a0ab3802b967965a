// The CLI's JSON tells time one way: ISO 8601 strings, never epoch milliseconds.
import { afterEach, describe, expect, it } from 'vitest';
import { withRegistrySession } from '../../../electron/cli/registry-session.js';
import { statusReport } from '../../../electron/cli/registry-view.js';
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
  it('holds no epoch milliseconds: access checks and notices are ISO like addedAt', async () => {
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
});
