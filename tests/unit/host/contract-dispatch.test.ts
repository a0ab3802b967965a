import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../support/host-harness.js';
import { channels } from '../../../shared/contract.js';
import type { HostState } from '../../../shared/domain.js';
import { startHost, stopHosts } from '../../support/host-harness.js';
import { removeTempDirs, tempDir } from '../../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

const hostile: unknown[] = [
  null,
  42,
  'string',
  [],
  { unexpected: true },
  { paths: 'not-an-array' },
  { rootIds: [] },
  { serverId: 7 },
  { __proto__: { polluted: true } },
  { name: '', transport: { type: 'stdio' } },
  { serverIds: ['x'], rootIds: ['y'], granted: 'yes' },
  { locale: 'xx' },
];

describe('dispatch', () => {
  it('round-trips a valid call', async () => {
    const host = await startHost({ runServers: false });
    const folder = tempDir();
    const added = await dispatch(host, 'roots.add', { paths: [folder] });
    expect(added).toMatchObject({ ok: true, value: { added: [{ canonicalPath: folder }], failed: [] } });
    const state = await dispatch(host, 'state.get', {});
    expect(state.ok && (state.value as HostState).roots).toHaveLength(1);
  });

  it('re-checks known roots, and names a root id it does not know', async () => {
    const host = await startHost({ runServers: false });
    const added = await dispatch(host, 'roots.add', { paths: [tempDir()] });
    const rootId = added.ok ? (added.value as { added: { id: string }[] }).added[0]?.id : undefined;
    expect(await dispatch(host, 'roots.recheck', { rootIds: [rootId] })).toEqual({ ok: true, value: null });
    expect(await dispatch(host, 'roots.recheck', {})).toEqual({ ok: true, value: null });
    expect(await dispatch(host, 'roots.recheck', { rootIds: [rootId, 'gone'] })).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: 'No root with id gone.' },
    });
  });

  it('an edit changes exactly the fields it names: a rename leaves a disabled, unsandboxed, offline server so', async () => {
    const host = await startHost({ runServers: false });
    const transport = { type: 'stdio', command: 'node', args: [], env: {} };
    const added = await dispatch(host, 'servers.add', { name: 'a', transport, enabled: false, sharing: false, sandbox: false, network: false, askForFolders: false });
    expect(added.ok).toBe(true);
    const serverId = host.registrySnapshot.servers[0]?.id;
    expect(await dispatch(host, 'servers.update', { serverId, patch: { name: 'b' } })).toEqual({ ok: true, value: null });
    expect(host.registrySnapshot.servers[0]).toMatchObject({ name: 'b', enabled: false, sharing: false, sandbox: false, network: false, askForFolders: false });
  });

  it('answers an unknown channel with a typed error', async () => {
    const host = await startHost({ runServers: false });
    expect(await dispatch(host, 'roots.destroyEverything', {})).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await dispatch(host, '__proto__', {})).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('rejects malformed payloads on every channel without changing state', async () => {
    const host = await startHost({ runServers: false });
    await host.addRoots([tempDir()]);
    const before = JSON.stringify(host.registrySnapshot);
    for (const channel of channels) {
      for (const payload of hostile) {
        const result = await dispatch(host, channel, payload);
        if (result.ok) {
          // Only read-only channels may accept a junk object (their input is empty).
          expect(['state.get'], `${channel} accepted ${JSON.stringify(payload)}`).toContain(channel);
        } else {
          expect(typeof result.error.code).toBe('string');
          expect(typeof result.error.message).toBe('string');
        }
      }
    }
    expect(JSON.stringify(host.registrySnapshot)).toBe(before);
  });
});
