// A batch of edits becomes one write and one list_changed per affected server, and unaffected
// servers hear nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addConnectedServer, callText, startHost, stopHosts } from '../support/host-harness.js';
import { allowedDirectories, everythingServer, filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('coalescing', () => {
  it('1,000 edits in one batch -> exactly one notification per affected server', async () => {
    const host = await startHost();
    const base = tempDir('many-');
    const folders = Array.from({ length: 100 }, (_, i) => path.join(base, `f${i}`));
    for (const folder of folders) fs.mkdirSync(folder);
    const result = await host.addRoots(folders);
    const rootIds = result.added.map((root) => root.id);
    const fsServer = await addConnectedServer(host, 'filesystem', filesystemServer());
    const everything = await addConnectedServer(host, 'everything', everythingServer());
    const bystander = await addConnectedServer(host, 'bystander', everythingServer());
    // Give each a first root, and wait until all three have asked for it and been told it
    // (server-everything's first sync comes ~350 ms after it starts).
    const grantedAt = Date.now();
    await host.setGrants([fsServer, everything, bystander], [rootIds[0] as string], true);
    await waitFor(async () => allowedDirectories(await callText(host, fsServer, 'list_allowed_directories')).length === 1, {
      what: 'first root',
    });
    // A confined server is restarted for the grant (new mounts), and the process being stopped may
    // still ask meanwhile (server-everything syncs ~350 ms after it starts): wait for the NEW process,
    // connected and checked after the grant, or the batch below meets it stopping and tells it nothing.
    await waitFor(
      () =>
        [fsServer, everything, bystander].every((id) => {
          const status = host.getState().servers.find((server) => server.id === id)?.status;
          const checkedSinceGrant = status?.confinement?.state !== 'enforced' || (status.confinement.selfCheck?.at ?? 0) >= grantedAt;
          return status?.state === 'connected' && checkedSinceGrant && status.lastRootsRequest?.uris.length === 1;
        }),
      { what: 'all three restarted, connected and told their first root' },
    );

    const notified: string[] = [];
    host.on('notified', (ids) => notified.push(...ids));
    const edits: Promise<unknown>[] = [];
    for (let i = 0; i < 1000; i++) {
      const rootId = rootIds[i % rootIds.length] as string;
      // Grant and revoke in turns; the last word for every root is "granted" except the first's.
      edits.push(host.setGrants([fsServer, everything], [rootId], i >= 900 || i % 2 === 0));
    }
    // One tick, one batch, one flush: every notification these edits cause has gone out once they resolve.
    await Promise.all(edits);

    expect(notified.filter((id) => id === fsServer)).toHaveLength(1);
    expect(notified.filter((id) => id === everything)).toHaveLength(1);
    expect(notified.filter((id) => id === bystander)).toHaveLength(0);
    await waitFor(
      async () => allowedDirectories(await callText(host, fsServer, 'list_allowed_directories')).length === 100,
      { what: 'all 100 folders at the filesystem server' },
    );
  });
});
