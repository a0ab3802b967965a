import { describe, expect, it } from 'vitest';
import { exportRegistry } from '../../../electron/cli/registry-export.js';
import { isEmptyPlan, planMerge, type RootHere } from '../../../electron/cli/registry-merge.js';
import type { Registry, ServerRecord } from '../../../shared/domain.js';
import { emptyRegistry } from '../../../shared/registry-schema.js';

const server = (id: string, name: string, env: Record<string, string> = {}): ServerRecord => ({
  id,
  name,
  transport: { type: 'stdio', command: 'npx', args: ['-y', name], env },
  enabled: true,
  sharing: true,
  sandbox: true,
  network: true,
  askForFolders: true,
  addedAt: '',
});

function source(): Registry {
  const value = emptyRegistry();
  value.roots.push(
    { id: 'r1', path: '/a', canonicalPath: '/a', name: 'a', addedAt: '' },
    { id: 'r2', path: '/b', canonicalPath: '/b', name: 'b', addedAt: '' },
    { id: 'r3', path: '/gone', canonicalPath: '/gone', name: 'gone', addedAt: '' },
  );
  value.servers.push(server('s1', 'fs'), server('s2', 'gh', { GITHUB_TOKEN: 'ghp_secret' }));
  value.grants = { s1: { r1: 'read-write', r2: 'read-only' }, s2: { r2: 'read-write', r3: 'read-write' } };
  return value;
}

const everywhere = new Map<string, RootHere>([
  ['/a', { canonicalPath: '/a' }],
  ['/b', { canonicalPath: '/b' }],
  ['/gone', { error: '"/gone" does not exist.' }],
]);

describe('planning an import', () => {
  it('into an empty registry: every root and server is new, every grant is listed to confirm', () => {
    const plan = planMerge(exportRegistry(source(), false), emptyRegistry(), everywhere);
    expect(plan.roots.map((root) => [root.path, root.status])).toEqual([['/a', 'add'], ['/b', 'add'], ['/gone', 'unavailable']]);
    expect(plan.servers.map((s) => [s.name, s.status, s.input?.enabled])).toEqual([['fs', 'add', true], ['gh', 'add', false]]);
    expect(plan.servers[1]?.input?.transport).toMatchObject({ env: { GITHUB_TOKEN: '' } });
    expect(plan.grants).toEqual([
      { server: 'fs', rootPath: '/a', canonicalPath: '/a', mode: 'read-write' },
      { server: 'fs', rootPath: '/b', canonicalPath: '/b', mode: 'read-only' },
      { server: 'gh', rootPath: '/b', canonicalPath: '/b', mode: 'read-write' },
    ]);
    expect(plan.skippedGrants).toEqual([{ server: 'gh', rootPath: '/gone', reason: '"/gone" does not exist.' }]);
  });

  it('into the same registry: nothing to do', () => {
    const registry = source();
    expect(isEmptyPlan(planMerge(exportRegistry(registry, false), registry, everywhere))).toBe(true);
  });

  it('merges by canonical path and name: what is here stays, only missing grants are new', () => {
    const here = emptyRegistry();
    here.roots.push({ id: 'x1', path: '/link-to-a', canonicalPath: '/a', name: 'mine', addedAt: '' });
    here.servers.push({ ...server('y1', 'fs'), sharing: false });
    here.grants = { y1: { x1: 'read-write' } };
    const plan = planMerge(exportRegistry(source(), false), here, everywhere);
    expect(plan.roots.map((root) => root.status)).toEqual(['exists', 'add', 'unavailable']);
    expect(plan.servers[0]).toMatchObject({ name: 'fs', status: 'exists', differs: ['sharing'] });
    expect(plan.grants.filter((grant) => grant.server === 'fs')).toEqual([{ server: 'fs', rootPath: '/b', canonicalPath: '/b', mode: 'read-only' }]);
  });

  it('lists a read-only grant here that the file has read-write as a widening to confirm, and never narrows', () => {
    const here = source();
    here.grants = { s1: { r1: 'read-only', r2: 'read-write' }, s2: {} };
    const plan = planMerge(exportRegistry(source(), false), here, everywhere);
    expect(plan.grants.filter((grant) => grant.server === 'fs')).toEqual([{ server: 'fs', rootPath: '/a', canonicalPath: '/a', mode: 'read-write', modeHere: 'read-only' }]);
  });

  it('does not count a value left out of the file as a difference', () => {
    const registry = source();
    const plan = planMerge(exportRegistry(registry, false), registry, everywhere);
    expect(plan.servers.find((s) => s.name === 'gh')?.differs).toEqual([]);
  });
});
