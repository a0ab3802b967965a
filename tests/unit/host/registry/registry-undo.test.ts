// Undo: the inverse of a removal or a revoke puts back the same ids, places, grants, modes and
// opt-ins, and never a grant the person revoked after the removal.
import { describe, expect, it } from 'vitest';
import * as edits from '../../../../electron/host/registry/registry-edits.js';
import { setWritableByChoice } from '../../../../electron/host/registry/grant-opt-ins.js';
import type { Registry } from '../../../../shared/domain.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';

const stdio = { type: 'stdio' as const, command: 'node', args: [], env: { TOKEN: 'sealed' } };

/** Three folders, two servers; s1 sees a (read-only) and b, s2 sees b and c. */
function setup() {
  let registry = emptyRegistry() as Registry;
  const roots = edits.addRoots(['/a', '/b', '/c'].map((p) => ({ path: p, canonicalPath: p })))(registry);
  registry = roots.registry;
  const s1 = edits.addServer({ name: 's1', transport: stdio, enabled: true, sharing: true })(registry);
  const s2 = edits.addServer({ name: 's2', transport: stdio, enabled: false, sharing: true })(s1.registry);
  registry = s2.registry;
  const [a, b, c] = roots.value.added.map((root) => root.id) as [string, string, string];
  registry = edits.setGrants([s1.value.id], [a], true, 'read-only')(registry).registry;
  registry = edits.setGrants([s1.value.id, s2.value.id], [b], true, 'read-write')(registry).registry;
  registry = edits.setGrants([s2.value.id], [c], true, 'read-write')(registry).registry;
  return { registry, a, b, c, s1: s1.value.id, s2: s2.value.id };
}

const run = <T>(edit: edits.Edit<T>, registry: Registry) => edit(registry);

describe('restoreRemoval', () => {
  it('puts removed folders back in their places, with their ids, grants and modes', () => {
    const { registry, a, b } = setup();
    const removed = run(edits.removeRoots([a, b]), registry);
    expect(removed.registry.roots).toHaveLength(1);
    const back = run(edits.restoreRemoval(removed.value), removed.registry);
    expect(back.registry).toEqual(registry);
    expect(back.value.restored).toBe(2 + 3);
  });

  it('puts a removed server back with its id, settings, secrets, place and grants', () => {
    const { registry, s1 } = setup();
    const removed = run(edits.removeServer(s1), registry);
    const back = run(edits.restoreRemoval(removed.value), removed.registry);
    expect(back.registry).toEqual(registry);
  });

  it('puts a bulk revoke back with each grant’s own mode', () => {
    const { registry, a, b, s1, s2 } = setup();
    const revoked = run(edits.setGrants([s1, s2], [a, b], false), registry);
    expect(revoked.value.revoked).toEqual([
      { serverId: s1, rootId: a, mode: 'read-only' },
      { serverId: s1, rootId: b, mode: 'read-write' },
      { serverId: s2, rootId: b, mode: 'read-write' },
    ]);
    const back = run(edits.restoreRemoval({ kind: 'grants', grants: revoked.value.revoked }), revoked.registry);
    expect(back.registry).toEqual(registry);
  });

  it('never restores a grant revoked after the removal', () => {
    const { registry, a, b, s1, s2 } = setup();
    const revoked = run(edits.setGrants([s1, s2], [a, b], false), registry);
    // Later: b is granted to s2 again, then revoked again. That last revoke is the person's word.
    let later = run(edits.setGrants([s2], [b], true), revoked.registry).registry;
    const again = run(edits.setGrants([s2], [b], false), later);
    later = again.registry;
    const revokedSince = new Set(again.value.revoked.map(edits.grantKey));
    const back = run(edits.restoreRemoval({ kind: 'grants', grants: revoked.value.revoked }, revokedSince), later);
    expect(back.registry.grants[s2]?.[b]).toBeUndefined();
    expect(back.registry.grants[s1]).toEqual({ [a]: 'read-only', [b]: 'read-write' });
  });

  it('keeps a newer decision: a grant that holds now keeps its mode', () => {
    const { registry, a, s1 } = setup();
    const revoked = run(edits.setGrants([s1], [a], false), registry);
    const regranted = run(edits.setGrants([s1], [a], true, 'read-write'), revoked.registry).registry;
    const back = run(edits.restoreRemoval({ kind: 'grants', grants: revoked.value.revoked }), regranted);
    expect(back.registry.grants[s1]?.[a]).toBe('read-write');
    expect(back.value.restored).toBe(0);
    expect(back.registry).toBe(regranted);
  });

  it('skips grants whose server went since, and refuses a folder added again under a new id', () => {
    const { registry, a, s1, s2 } = setup();
    const removedRoot = run(edits.removeRoots([a]), registry);
    const serverGone = run(edits.removeServer(s1), removedRoot.registry).registry;
    const back = run(edits.restoreRemoval(removedRoot.value), serverGone);
    expect(back.registry.roots.map((root) => root.id)[0]).toBe(a);
    expect(back.registry.grants[s1]).toBeUndefined();
    expect(back.registry.grants[s2]?.[a]).toBeUndefined();

    const readded = run(edits.addRoots([{ path: '/a', canonicalPath: '/a' }]), removedRoot.registry).registry;
    expect(() => run(edits.restoreRemoval(removedRoot.value), readded)).toThrow(/added again since/);
  });

  it('refuses a server whose name was taken since, and lists revokes between registries', () => {
    const { registry, s1, a } = setup();
    const removed = run(edits.removeServer(s1), registry);
    const taken = run(edits.addServer({ name: 's1', transport: stdio, enabled: true, sharing: true }), removed.registry).registry;
    expect(() => run(edits.restoreRemoval(removed.value), taken)).toThrow(/was added since/);
    expect(edits.revokedBetween(registry, run(edits.setGrants([s1], [a], false), registry).registry)).toEqual([{ serverId: s1, rootId: a, mode: 'read-only' }]);
  });

  describe('a grant with protected names left writable by choice', () => {
    /** setup(), with .git/hooks and .vscode left writable in s1's read-write grant of b and .bashrc in s2's of c. */
    function withOptIns() {
      const world = setup();
      let registry = setWritableByChoice(world.s1, world.b, ['.vscode', '.git/hooks'])(world.registry).registry;
      registry = setWritableByChoice(world.s2, world.c, ['.bashrc'])(registry).registry;
      return { ...world, registry };
    }
    const optIns = (registry: Registry, serverId: string) => registry.servers.find((server) => server.id === serverId)?.writableByChoice;

    it('comes back from a revoke with its opt-in, exactly', () => {
      const { registry, b, s1 } = withOptIns();
      const revoked = run(edits.setGrants([s1], [b], false), registry);
      expect(optIns(revoked.registry, s1)).toBeUndefined();
      expect(revoked.value.revoked).toEqual([{ serverId: s1, rootId: b, mode: 'read-write', writable: ['.git/hooks', '.vscode'] }]);
      const back = run(edits.restoreRemoval({ kind: 'grants', grants: revoked.value.revoked }), revoked.registry);
      expect(back.registry).toEqual(registry);
    });

    it('comes back with its opt-in when its folder or its server is put back', () => {
      const { registry, b, c, s1 } = withOptIns();
      const removedRoots = run(edits.removeRoots([b, c]), registry);
      expect(removedRoots.registry.servers.every((server) => server.writableByChoice === undefined)).toBe(true);
      expect(run(edits.restoreRemoval(removedRoots.value), removedRoots.registry).registry).toEqual(registry);
      const removedServer = run(edits.removeServer(s1), registry);
      expect(run(edits.restoreRemoval(removedServer.value), removedServer.registry).registry).toEqual(registry);
    });

    it('stays dropped when its grant is not put back (revoked since, or granted again since)', () => {
      const { registry, b, c, s1, s2 } = withOptIns();
      // The server comes back, but its grant of b was revoked after the removal: no opt-in without its grant.
      const removedServer = run(edits.removeServer(s1), registry);
      const back = run(edits.restoreRemoval(removedServer.value, new Set([edits.grantKey({ serverId: s1, rootId: b })])), removedServer.registry);
      expect(back.registry.grants[s1]?.[b]).toBeUndefined();
      expect(optIns(back.registry, s1)).toBeUndefined();
      // Granted again since (starting protected): the newer decision stands, opt-in included.
      const revoked = run(edits.setGrants([s2], [c], false), registry);
      const regranted = run(edits.setGrants([s2], [c], true), revoked.registry).registry;
      const kept = run(edits.restoreRemoval({ kind: 'grants', grants: revoked.value.revoked }), regranted);
      expect(kept.registry).toBe(regranted);
      expect(optIns(kept.registry, s2)).toBeUndefined();
    });

    it('comes back with exactly the names it had: none, when the file gained a choice for it meanwhile (a hand edit)', () => {
      const { registry, a, s1 } = withOptIns();
      const revoked = run(edits.setGrants([s1], [a], false), registry);
      const handEdited: Registry = {
        ...revoked.registry,
        servers: revoked.registry.servers.map((server) => (server.id === s1 ? { ...server, writableByChoice: { ...server.writableByChoice, [a]: ['.bashrc'] } } : server)),
      };
      const back = run(edits.restoreRemoval({ kind: 'grants', grants: revoked.value.revoked }), handEdited);
      expect(back.registry).toEqual(registry);
    });
  });
});
