import { describe, expect, it } from 'vitest';
import { setWritableByChoice } from '../../../../electron/host/registry/grant-opt-ins.js';
import * as edits from '../../../../electron/host/registry/registry-edits.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';
import type { Registry } from '../../../../shared/domain.js';

const stdio = { type: 'stdio' as const, command: 'node', args: [], env: {} };

function granted(): { registry: Registry; rootId: string; serverId: string } {
  let registry = emptyRegistry() as Registry;
  const added = edits.addRoots([{ path: '/p', canonicalPath: '/p' }])(registry);
  const server = edits.addServer({ name: 's', transport: stdio, enabled: true, sharing: true })(added.registry);
  const rootId = added.value.added[0]!.id;
  registry = edits.setGrants([server.value.id], [rootId], true, 'read-write')(server.registry).registry;
  return { registry, rootId, serverId: server.value.id };
}

describe('setWritableByChoice', () => {
  it('stores the chosen names on the grant, in the protected list’s order, and an empty choice removes it', () => {
    const { registry, rootId, serverId } = granted();
    const chosen = setWritableByChoice(serverId, rootId, ['.mcp.json', '.vscode'])(registry).registry;
    expect(chosen.servers[0]!.writableByChoice).toEqual({ [rootId]: ['.vscode', '.mcp.json'] });
    const cleared = setWritableByChoice(serverId, rootId, [])(chosen).registry;
    expect(cleared.servers[0]!.writableByChoice).toBeUndefined();
  });

  it('refuses a name that is not protected, and a folder the server has no grant of, changing nothing', () => {
    const { registry, rootId, serverId } = granted();
    expect(() => setWritableByChoice(serverId, rootId, ['src'])(registry)).toThrow(/not a protected name: src/);
    const revoked = edits.setGrants([serverId], [rootId], false)(registry).registry;
    expect(() => setWritableByChoice(serverId, rootId, ['.vscode'])(revoked)).toThrow(/no grant of that folder/);
    expect(registry.servers[0]!.writableByChoice).toBeUndefined();
  });

  it('goes with its grant: revoked or the folder removed, a new grant of it starts protected', () => {
    const { registry, rootId, serverId } = granted();
    const chosen = setWritableByChoice(serverId, rootId, ['.vscode'])(registry).registry;
    const revoked = edits.setGrants([serverId], [rootId], false)(chosen).registry;
    expect(revoked.servers[0]!.writableByChoice).toBeUndefined();
    const again = edits.setGrants([serverId], [rootId], true, 'read-write')(revoked).registry;
    expect(again.servers[0]!.writableByChoice).toBeUndefined();
    const removed = edits.removeRoots([rootId])(chosen).registry;
    expect(removed.servers[0]!.writableByChoice).toBeUndefined();
    // A mode change keeps the choice (a read-only grant ignores it; back to read-write, it holds again).
    const readOnly = edits.setGrants([serverId], [rootId], true, 'read-only')(chosen).registry;
    expect(readOnly.servers[0]!.writableByChoice).toEqual({ [rootId]: ['.vscode'] });
  });

  it('a choice the file holds for a folder not granted (a hand edit) is not taken by a later grant of it: that grant starts protected', () => {
    const { registry, rootId, serverId } = granted();
    const revoked = edits.setGrants([serverId], [rootId], false)(registry).registry;
    const handEdited: Registry = { ...revoked, servers: revoked.servers.map((server) => ({ ...server, writableByChoice: { [rootId]: ['.git/hooks'] } })) };
    const again = edits.setGrants([serverId], [rootId], true, 'read-write')(handEdited).registry;
    expect(again.grants[serverId]).toEqual({ [rootId]: 'read-write' });
    expect(again.servers[0]!.writableByChoice).toBeUndefined();
  });
});

