// Undo through the contract, on a real host and registry file: the same ids come back, and a grant
// revoked after the removal (here by another process, as the CLI would) stays revoked.
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch, editRegistry, startHost, stopHosts } from '../../../support/host-harness.js';
import { removeTempDirs, tempDir, waitFor } from '../../../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

const stdio = { type: 'stdio' as const, command: 'node', args: [], env: {} };

async function call<T>(host: Parameters<typeof dispatch>[0], channel: string, payload: unknown): Promise<T> {
  const result = (await dispatch(host, channel, payload)) as { ok: boolean; value?: T; error?: unknown };
  if (!result.ok) throw new Error(`${channel}: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('undo.apply', () => {
  it('brings a removed folder back with its id and grants, once', async () => {
    const configDir = tempDir('mcp-roots-config-');
    const host = await startHost({ runServers: false, configDir });
    const { added } = await host.addRoots([tempDir('a-'), tempDir('b-')]);
    const server = await host.addServer({ name: 's', transport: stdio, enabled: false, sharing: true });
    const [a, b] = added.map((root) => root.id) as [string, string];
    await host.setGrants([server.id], [a, b], true);
    const before = host.model.current;

    const { undoId } = await call<{ undoId: string }>(host, 'roots.remove', { rootIds: [a] });
    expect(host.getState().roots.map((root) => root.id)).toEqual([b]);
    expect(await call(host, 'undo.apply', { undoId })).toEqual({ restored: 2 });
    expect(host.model.current.roots).toEqual(before.roots);
    expect(host.model.current.grants).toEqual(before.grants);
    // Done once: a second undo of the same ticket is refused, not repeated.
    expect(await dispatch(host, 'undo.apply', { undoId })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('never restores a grant revoked after the revoke it undoes, even by another process', async () => {
    const configDir = tempDir('mcp-roots-config-');
    const host = await startHost({ runServers: false, configDir, registryPollMs: 50 });
    const { added } = await host.addRoots([tempDir('a-'), tempDir('b-')]);
    const server = await host.addServer({ name: 's', transport: stdio, enabled: false, sharing: true });
    const [a, b] = added.map((root) => root.id) as [string, string];
    await host.setGrants([server.id], [a, b], true, 'read-only');

    const { undoId } = await call<{ undoId: string }>(host, 'grants.set', { serverIds: [server.id], rootIds: [a, b], granted: false });
    // Elsewhere, a is granted again and then revoked again: that last revoke is the person's word.
    await editRegistry(configDir, (editor) => editor.setGrants([server.id], [a], true));
    await waitFor(() => host.model.current.grants[server.id]?.[a], { what: 'the other process’s grant' });
    await editRegistry(configDir, (editor) => editor.setGrants([server.id], [a], false));
    await waitFor(() => host.model.current.grants[server.id]?.[a] === undefined, { what: 'the other process’s revoke' });

    expect(await call(host, 'undo.apply', { undoId })).toEqual({ restored: 1 });
    expect(host.model.current.grants[server.id]).toEqual({ [b]: 'read-only' });
  });

  it('brings a removed server back with its id', async () => {
    const host = await startHost({ runServers: false });
    const server = await host.addServer({ name: 's', transport: { ...stdio, env: { TOKEN: 't' } }, enabled: false, sharing: true });
    const { undoId } = await call<{ undoId: string }>(host, 'servers.remove', { serverId: server.id });
    expect(host.getState().servers).toEqual([]);
    await call(host, 'undo.apply', { undoId });
    expect(host.getState().servers.map((view) => [view.id, view.name])).toEqual([[server.id, 's']]);
  });

  it('takes a bulk grant back: new grants revoked, changed modes as they were, a pair changed since left as it is (#30 item 1)', async () => {
    const host = await startHost({ runServers: false });
    const [s1, s2] = [await host.addServer({ name: 's1', transport: stdio, enabled: false, sharing: true }), await host.addServer({ name: 's2', transport: stdio, enabled: false, sharing: true })];
    const { added } = await host.addRoots([tempDir('d-'), tempDir('e-')]);
    const [d, e] = added.map((root) => root.id) as [string, string];
    await host.setGrants([s1.id], [d], true, 'read-only');
    const before = structuredClone(host.model.current.grants);
    // The bulk Share: 2 folders x 2 servers, read-write.
    const { undoId, changed } = await call<{ undoId: string; changed: number }>(host, 'grants.set', { serverIds: [s1.id, s2.id], rootIds: [d, e], granted: true, mode: 'read-write' });
    expect(changed).toBe(4);
    expect(undoId).toEqual(expect.any(String));
    // Changed since: s2's e made read-only by another step; the undo leaves that choice alone.
    await host.setGrants([s2.id], [e], true, 'read-only');
    expect(await call(host, 'undo.apply', { undoId })).toEqual({ restored: 3 });
    expect(host.model.current.grants).toEqual({ ...before, [s1.id]: { [d]: 'read-only' }, [s2.id]: { [e]: 'read-only' } });
    // Nothing to undo when nothing changed.
    expect(await call(host, 'grants.set', { serverIds: [s1.id], rootIds: [d], granted: true, mode: 'read-only' })).toEqual({ undoId: null, changed: 0 });
  });

  it('brings a revoked read-write grant back with the protected names the person left writable in it', async () => {
    const host = await startHost({ runServers: false });
    const { added } = await host.addRoots([tempDir('repo-')]);
    const server = await host.addServer({ name: 's', transport: stdio, enabled: false, sharing: true });
    const root = added[0]!.id;
    await host.setGrants([server.id], [root], true, 'read-write');
    await call(host, 'grants.setWritable', { serverId: server.id, rootId: root, names: ['.git/hooks', '.vscode'] });

    const { undoId } = await call<{ undoId: string }>(host, 'grants.set', { serverIds: [server.id], rootIds: [root], granted: false });
    expect(host.getState().servers[0]?.writableByChoice).toBeUndefined();
    expect(await call(host, 'undo.apply', { undoId })).toEqual({ restored: 1 });
    expect(host.model.current.grants[server.id]).toEqual({ [root]: 'read-write' });
    expect(host.getState().servers[0]?.writableByChoice).toEqual({ [root]: ['.git/hooks', '.vscode'] });
  });
});

