// Which rows and columns the matrix shows, in which order, and how same-named folders are told apart.
import { describe, expect, it } from 'vitest';
import type { RootView, ServerView } from '../../shared/domain.js';
import { createGrantIndex } from '../../renderer/src/grant-index.js';
import { distinguishingHints, matchOf, rootRows, serverColumns } from '../../renderer/src/components/matrix-view.js';

const root = (id: string, path: string, state: RootView['access']['state'] = 'ok', name = path.split('/').pop()!): RootView => ({
  id,
  path,
  canonicalPath: path,
  name,
  addedAt: '',
  uri: `file://${path}`,
  access: { state, checkedAt: 0 },
  isLink: false,
});
const server = (id: string, name: string, granted: string[] = []): ServerView =>
  ({ id, name, grantedRootIds: granted, effectiveRootIds: granted, readOnlyRootIds: [] }) as unknown as ServerView;

const roots = [
  root('r1', '/work/client/web-service'),
  root('r2', '/work/server/web-service', 'missing'),
  root('r3', '/home/me/notes'),
  root('r4', '/srv/apps/client/web-service'),
];
const servers = [server('s1', 'filesystem', ['r3', 'r1']), server('s2', 'github', ['r3'])];
const grants = createGrantIndex(servers);

describe('distinguishingHints', () => {
  it('gives repeated names the fewest parent folders that tell them apart', () => {
    const hints = distinguishingHints(roots);
    expect(hints.get('r3')).toBeUndefined();
    expect([hints.get('r1'), hints.get('r2'), hints.get('r4')]).toEqual(['/work/client/', '/work/server/', '…/apps/client/']);
  });

  it('handles ten folders of one name', () => {
    const many = Array.from({ length: 10 }, (_, index) => root(`m${index}`, `/repos/team-${index}/web-service`));
    const hints = distinguishingHints(many);
    expect(new Set(hints.values()).size).toBe(10);
    expect(hints.get('m3')).toBe('…/team-3/');
  });
});

describe('rootRows', () => {
  it('filters by name or path and says where it matched', () => {
    expect(matchOf(roots[2]!, 'note')).toEqual({ field: 'name', start: 0, end: 4 });
    expect(matchOf(roots[2]!, 'home/me')).toEqual({ field: 'path', start: 1, end: 8 });
    const rows = rootRows(roots, servers, grants, { filter: 'CLIENT', sort: 'added' });
    expect(rows.map((row) => [row.root.id, row.match?.field])).toEqual([
      ['r1', 'path'],
      ['r4', 'path'],
    ]);
  });

  it('shows only shared folders, among the servers shown, on request', () => {
    expect(rootRows(roots, servers, grants, { filter: '', sort: 'added', sharedOnly: true }).map((row) => row.root.id)).toEqual(['r1', 'r3']);
    expect(rootRows(roots, [servers[1]!], grants, { filter: '', sort: 'added', sharedOnly: true }).map((row) => row.root.id)).toEqual(['r3']);
  });

  it('sorts by name, path, how widely shared, and problems first', () => {
    const ids = (sort: 'name' | 'path' | 'shared' | 'problems') => rootRows(roots, servers, grants, { filter: '', sort }).map((row) => row.root.id);
    expect(ids('name')).toEqual(['r3', 'r4', 'r1', 'r2']);
    expect(ids('path')).toEqual(['r3', 'r4', 'r1', 'r2']);
    expect(ids('shared')).toEqual(['r3', 'r1', 'r4', 'r2']);
    expect(ids('problems')[0]).toBe('r2');
  });
});

describe('serverColumns', () => {
  it('filters servers by name', () => {
    expect(serverColumns(servers, 'GIT').map((s) => s.id)).toEqual(['s2']);
    expect(serverColumns(servers, ' ')).toBe(servers);
  });
});
