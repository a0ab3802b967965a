// Folder by folder, what a registry change did to each server's grants, and paths as a person reads them.
import { describe, expect, it } from 'vitest';
import { grantChanges, homeRelative } from '../../../../electron/host/connections/grant-changes.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';
import type { Registry } from '../../../../shared/domain.js';

const root = (id: string, canonicalPath: string) => ({ id, path: canonicalPath, canonicalPath, name: id, addedAt: '' });
const server = (id: string) => ({ id, name: id, transport: { type: 'stdio' as const, command: 'x', args: [], env: {} }, enabled: true, sharing: true, sandbox: true, network: true, askForFolders: true, addedAt: '' });

describe('grantChanges', () => {
  it('tells grants, revokes (a removed folder too, by its old path) and mode changes apart', () => {
    const before: Registry = { ...emptyRegistry(), roots: [root('a', '/home/me/a'), root('b', '/home/me/b'), root('c', '/srv/c')], servers: [server('s'), server('t')], grants: { s: { a: 'read-write', b: 'read-write' }, t: { c: 'read-only' } } };
    const after: Registry = { ...before, roots: [root('b', '/home/me/b'), root('c', '/srv/c')], grants: { s: { b: 'read-only', c: 'read-only' }, t: before.grants.t! } };
    const changes = grantChanges(before, after, '/home/me');
    expect([...changes.keys()]).toEqual(['s']);
    expect(changes.get('s')).toEqual({
      granted: [{ path: '/srv/c', shown: '/srv/c', mode: 'read-only' }],
      revoked: [{ path: '/home/me/a', shown: '~/a', mode: 'read-write' }],
      modeChanged: [{ path: '/home/me/b', shown: '~/b', mode: 'read-only' }],
    });
  });

  it('says nothing at the first load', () => {
    expect(grantChanges(undefined, emptyRegistry(), '/home/me').size).toBe(0);
  });
});

describe('homeRelative', () => {
  it('shortens only folders below home', () => {
    expect(homeRelative('/home/me/code/a', '/home/me')).toBe('~/code/a');
    expect(homeRelative('/home/me', '/home/me')).toBe('~');
    expect(homeRelative('/home/me2/code', '/home/me')).toBe('/home/me2/code');
    expect(homeRelative('/home/me/..data', '/home/me')).toBe('~/..data');
    expect(homeRelative('/srv/x', '/')).toBe('/srv/x');
  });
});
