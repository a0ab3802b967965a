// A registry read again from disk shares what did not change with the version before it, and
// never hides what did.
import { describe, expect, it } from 'vitest';
import { shareUnchanged } from '../../../../electron/host/registry/registry-sharing.js';
import type { Registry } from '../../../../shared/domain.js';

const base = (): Registry => ({
  schemaVersion: 2,
  roots: [
    { id: 'r1', path: '/a', canonicalPath: '/a', name: 'a', addedAt: '2026-01-01' },
    { id: 'r2', path: '/b', canonicalPath: '/b', name: 'b', addedAt: '2026-01-01' },
  ],
  servers: [{ id: 's1', name: 'fs', transport: { type: 'stdio', command: 'node', args: ['x'], env: { K: 'v' } }, enabled: true, sharing: true, sandbox: true, network: false, askForFolders: false, addedAt: '2026-01-01' } as unknown as Registry['servers'][number]],
  grants: { s1: { r1: 'read-write' }, s2: { r2: 'read-only' } },
  settings: { locale: 'system', theme: 'system' },
});
/** The same content as new objects, as a fresh parse of the file gives it. */
const reread = (registry: Registry): Registry => JSON.parse(JSON.stringify(registry)) as Registry;

describe('shareUnchanged', () => {
  it('keeps every unchanged part, down to the arrays, when the file says the same', () => {
    const before = base();
    const after = shareUnchanged(before, reread(before));
    expect(after).toEqual(before);
    expect(after.roots).toBe(before.roots);
    expect(after.servers).toBe(before.servers);
    expect(after.grants).toBe(before.grants);
    expect(after.settings).toBe(before.settings);
  });

  it('a grant changes only that server’s grants: the roots and the other grants keep their identity', () => {
    const before = base();
    const next = reread(before);
    next.grants.s1 = { r1: 'read-write', r2: 'read-only' };
    const after = shareUnchanged(before, next);
    expect(after.grants.s1).toEqual({ r1: 'read-write', r2: 'read-only' });
    expect(after.grants.s1).not.toBe(before.grants.s1);
    expect(after.grants.s2).toBe(before.grants.s2);
    expect(after.roots).toBe(before.roots);
  });

  it('never hides a change: a renamed root, a mode, a server’s env, a removed or added entry', () => {
    const before = base();
    const next = reread(before);
    (next.roots[1] as Registry['roots'][number]).name = 'renamed';
    (next.grants.s2 as Record<string, string>).r2 = 'read-write';
    (next.servers[0] as { transport: { env: Record<string, string> } }).transport.env.K = 'w';
    next.roots.push({ id: 'r3', path: '/c', canonicalPath: '/c', name: 'c', addedAt: '2026-01-02' });
    delete next.grants.s1;
    const after = shareUnchanged(before, next);
    expect(after).toEqual(next);
    expect(after.roots[0]).toBe(before.roots[0]);
    expect(after.roots[1]).not.toBe(before.roots[1]);
    expect(after.servers[0]).not.toBe(before.servers[0]);
    expect(after.grants).not.toBe(before.grants);
  });

  it('matches moved entries by id, and a root with one more field is a new root', () => {
    const before = base();
    const next = reread(before);
    next.roots.reverse();
    (next.roots[0] as unknown as Record<string, unknown>).extra = 'x';
    const after = shareUnchanged(before, next);
    expect(after.roots.map((root) => root.id)).toEqual(['r2', 'r1']);
    expect(after.roots[1]).toBe(before.roots[0]);
    expect(after.roots[0]).not.toBe(before.roots[1]);
    expect(after.roots).not.toBe(before.roots);
  });
});
