// Folders named by a server's arguments are flagged in the state, and marked granted once a root for
// that folder is granted to the server (the same folder reached through a symlink counts too).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addRoot, dispatch, startHost, stopHosts } from '../../../support/host-harness.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('argument folders in the state', () => {
  it('flags server-filesystem /a /b, follows grants, and gives way to ${roots} on request', async () => {
    const host = await startHost({ runServers: false });
    const [a, b] = [tempDir('arg-a-'), tempDir('arg-b-')];
    const link = path.join(tempDir('links-'), 'to-b');
    fs.symlinkSync(b, link);
    const server = await host.addServer({
      name: 'fs',
      transport: { type: 'stdio', command: 'node', args: ['server.js', a, link, '/no/such/folder'], env: { DATA_DIR: a } },
      enabled: true,
      sharing: true,
    });
    const folders = () => host.getState().servers.find((view) => view.id === server.id)?.argumentFolders;
    expect(folders()).toEqual([
      { path: a, source: { kind: 'arg', index: 1 }, granted: false },
      { path: link, source: { kind: 'arg', index: 2 }, granted: false },
    ]);
    await host.setGrants([server.id], [await addRoot(host, b)], true);
    expect(folders()?.map((folder) => folder.granted)).toEqual([false, true]);

    expect(await dispatch(host, 'servers.replaceArgumentFolder', { serverId: server.id, path: a })).toEqual({ ok: true, value: null });
    expect(host.registrySnapshot.servers[0]?.transport).toMatchObject({ args: ['server.js', '${roots}', link, '/no/such/folder'] });
    expect(await dispatch(host, 'servers.replaceArgumentFolder', { serverId: server.id, path: '/elsewhere' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });
});
