// Nothing widens by accident: a folder swapped for a symlink is hidden until the user confirms,
// removing a root revokes it everywhere, and a disabled or non-sharing server sees nothing.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, stopHosts } from '../../support/host-harness.js';
import { removeTempDirs, tempDir, waitFor } from '../../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

const stdio = { type: 'stdio' as const, command: 'node', args: [], env: {} };

async function hostWithServer() {
  const host = await startHost({ runServers: false, monitor: { sweepIntervalMs: 100 } });
  const server = await host.addServer({ name: 's', transport: stdio, enabled: true, sharing: true });
  return { host, serverId: server.id };
}

describe('nothing widens by accident', () => {
  it('a root folder replaced by a symlink to elsewhere is hidden until the user confirms', async () => {
    const { host, serverId } = await hostWithServer();
    const base = tempDir('swap-');
    const project = path.join(base, 'project');
    const elsewhere = path.join(base, 'elsewhere');
    fs.mkdirSync(project);
    fs.mkdirSync(elsewhere);
    const { added } = await host.addRoots([project]);
    const rootId = added[0]?.id as string;
    await host.setGrants([serverId], [rootId], true);
    expect(host.rootsFor(serverId).map((root) => root.uri)).toEqual([pathToFileURL(project).href]);

    fs.rmSync(project, { recursive: true });
    fs.symlinkSync(elsewhere, project);
    await waitFor(() => host.getState().roots[0]?.access.state === 'target-changed', { what: 'target-changed' });
    expect(host.getState().roots[0]?.access.reason).toContain(elsewhere);
    expect(host.rootsFor(serverId)).toEqual([]);

    const view = await host.acceptRootTarget(rootId);
    expect(view.canonicalPath).toBe(elsewhere);
    await waitFor(() => host.getState().roots[0]?.access.state === 'ok', { what: 'ok after confirm' });
    expect(host.rootsFor(serverId).map((root) => root.uri)).toEqual([pathToFileURL(elsewhere).href]);
  });

  it('removing a root revokes it from every server, and re-adding it grants nothing', async () => {
    const { host, serverId } = await hostWithServer();
    const other = await host.addServer({ name: 'other', transport: stdio, enabled: true, sharing: true });
    const folder = tempDir('removed-');
    const { added } = await host.addRoots([folder]);
    await host.setGrants([serverId, other.id], [added[0]?.id as string], true);
    await host.removeRoots([added[0]?.id as string]);
    expect(host.rootsFor(serverId)).toEqual([]);
    expect(host.rootsFor(other.id)).toEqual([]);
    await host.addRoots([folder]);
    expect(host.getState().servers.every((server) => server.grantedRootIds.length === 0)).toBe(true);
    expect(host.rootsFor(serverId)).toEqual([]);
  });

  it('a disabled server or one with sharing off is told nothing, grants kept', async () => {
    const { host, serverId } = await hostWithServer();
    const folder = tempDir('kept-');
    const { added } = await host.addRoots([folder]);
    await host.setGrants([serverId], [added[0]?.id as string], true);
    await host.setSharing(serverId, false);
    expect(host.rootsFor(serverId)).toEqual([]);
    await host.setSharing(serverId, true);
    await host.setEnabled(serverId, false);
    expect(host.rootsFor(serverId)).toEqual([]);
    expect(host.getState().servers[0]?.grantedRootIds).toEqual([added[0]?.id]);
  });
});
