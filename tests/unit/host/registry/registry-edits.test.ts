import { describe, expect, it } from 'vitest';
import * as edits from '../../../../electron/host/registry/registry-edits.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';
import type { Registry } from '../../../../shared/domain.js';

const stdio = { type: 'stdio' as const, command: 'node', args: [], env: {} };

function withRootsAndServer(): { registry: Registry; rootIds: string[]; serverId: string } {
  let registry = emptyRegistry() as Registry;
  const added = edits.addRoots([
    { path: '/a', canonicalPath: '/a' },
    { path: '/b', canonicalPath: '/b' },
  ])(registry);
  registry = added.registry;
  const server = edits.addServer({ name: 's', transport: stdio, enabled: true, sharing: true })(registry);
  return { registry: server.registry, rootIds: added.value.added.map((r) => r.id), serverId: server.value.id };
}

describe('registry edits', () => {
  it('default deny: a new server and a new root start with no grant', () => {
    const { registry, serverId } = withRootsAndServer();
    expect(registry.grants[serverId]).toEqual({});
  });

  it('rejects a duplicate canonical path and keeps the first', () => {
    const { registry } = withRootsAndServer();
    const result = edits.addRoots([{ path: '/link-to-a', canonicalPath: '/a' }])(registry);
    expect(result.value.added).toEqual([]);
    expect(result.value.duplicates).toHaveLength(1);
    expect(result.registry.roots).toHaveLength(2);
  });

  it('grants and revokes in bulk, keeping the registry order', () => {
    const { registry, rootIds, serverId } = withRootsAndServer();
    const granted = edits.setGrants([serverId], [...rootIds].reverse(), true)(registry).registry;
    expect(Object.keys(granted.grants[serverId] ?? {})).toEqual(rootIds);
    const revoked = edits.setGrants([serverId], [rootIds[0] as string], false)(granted).registry;
    expect(Object.keys(revoked.grants[serverId] ?? {})).toEqual([rootIds[1]]);
  });

  it('grants read-only unless told (least privilege), keeps a mode when re-granted without one, and counts real changes', () => {
    const { registry, rootIds, serverId } = withRootsAndServer();
    const [a, b] = rootIds as [string, string];
    const readWrite = edits.setGrants([serverId], [a], true, 'read-write')(registry);
    expect(readWrite.registry.grants[serverId]).toEqual({ [a]: 'read-write' });
    const again = edits.setGrants([serverId], [a, b], true)(readWrite.registry);
    expect(again.registry.grants[serverId]).toEqual({ [a]: 'read-write', [b]: 'read-only' });
    expect(again.value.changed).toBe(1);
    const narrowed = edits.setGrants([serverId], [a], true, 'read-only')(again.registry);
    expect(narrowed.registry.grants[serverId]).toEqual({ [a]: 'read-only', [b]: 'read-only' });
    // Revoking what was never granted changes nothing, and says so.
    const none = edits.setGrants([serverId], [a], false)(registry);
    expect(none.value.changed).toBe(0);
    expect(none.registry).toBe(registry);
  });

  it('a new server is sandboxed, networked and asks for folders unless told otherwise', () => {
    const { registry } = withRootsAndServer();
    expect(registry.servers[0]).toMatchObject({ sandbox: true, network: true, askForFolders: true });
    const off = edits.addServer({ name: 't', transport: stdio, enabled: true, sharing: true, sandbox: false, network: false })(registry);
    expect(off.value).toMatchObject({ sandbox: false, network: false, askForFolders: true });
  });

  it('removing a root revokes it from every server', () => {
    const { registry, rootIds, serverId } = withRootsAndServer();
    const granted = edits.setGrants([serverId], rootIds, true)(registry).registry;
    const removed = edits.removeRoots([rootIds[0] as string])(granted).registry;
    expect(Object.keys(removed.grants[serverId] ?? {})).toEqual([rootIds[1]]);
    expect(removed.roots.map((r) => r.id)).toEqual([rootIds[1]]);
  });

  it('refuses unknown ids and duplicate server names without changing anything', () => {
    const { registry, serverId } = withRootsAndServer();
    expect(() => edits.setGrants([serverId], ['nope'], true)(registry)).toThrow(expect.objectContaining({ code: 'not-found' }));
    expect(() => edits.removeServer('nope')(registry)).toThrow(expect.objectContaining({ code: 'not-found' }));
    expect(() => edits.addServer({ name: 's', transport: stdio, enabled: true, sharing: true })(registry)).toThrow(
      expect.objectContaining({ code: 'duplicate' }),
    );
  });

  it('removing a server drops its grants', () => {
    const { registry, rootIds, serverId } = withRootsAndServer();
    const granted = edits.setGrants([serverId], rootIds, true)(registry).registry;
    expect(edits.removeServer(serverId)(granted).registry.grants).toEqual({});
  });

  it('replaces a folder named by an argument with ${roots}, once, and refuses a folder that is not a whole argument', () => {
    let registry = emptyRegistry() as Registry;
    const server = edits.addServer({ name: 'fs', transport: { ...stdio, args: ['server.js', '/a/', '/b', '/a'] }, enabled: true, sharing: true })(registry);
    registry = server.registry;
    const first = edits.replaceArgumentFolder(server.value.id, '/a')(registry);
    expect(first.value.transport).toMatchObject({ args: ['server.js', '${roots}', '/b'] });
    const second = edits.replaceArgumentFolder(server.value.id, '/b')(first.registry);
    expect(second.value.transport).toMatchObject({ args: ['server.js', '${roots}'] });
    expect(() => edits.replaceArgumentFolder(server.value.id, '/c')(second.registry)).toThrow(expect.objectContaining({ code: 'invalid-input' }));
  });
});
