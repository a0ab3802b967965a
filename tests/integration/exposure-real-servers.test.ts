// The host against real MCP servers from npm: what each server itself reports is the truth.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { addConnectedServer, addRoot, callText, startHost, stopHosts } from '../support/host-harness.js';
import {
  allowedDirectories,
  everythingServer,
  filesystemServer,
  removeTempDirs,
  tempDir,
  waitFor,
} from '../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

async function filesystemSees(host: Awaited<ReturnType<typeof startHost>>, serverId: string): Promise<string[]> {
  return allowedDirectories(await callText(host, serverId, 'list_allowed_directories'));
}

function everythingRoots(text: string): string[] {
  return [...text.matchAll(/file:\/\/[^\s)"]+/g)].map((match) => match[0]);
}

describe('exposure through real servers', () => {
  it('grant shows a folder to server-filesystem, revoke takes it away, and a server without grants sees nothing', async () => {
    const host = await startHost();
    const folder = tempDir('project-a-');
    const other = tempDir('project-b-');
    const rootA = await addRoot(host, folder);
    const rootB = await addRoot(host, other);
    const fsServer = await addConnectedServer(host, 'filesystem', filesystemServer());

    expect(await filesystemSees(host, fsServer)).toEqual([]);
    expect(host.getState().consentRequests.map((request) => request.serverId)).toContain(fsServer);

    await host.setGrants([fsServer], [rootA, rootB], true);
    await waitFor(async () => (await filesystemSees(host, fsServer)).length === 2, { what: 'both folders' });
    expect(host.getState().consentRequests).toEqual([]);

    await host.setGrants([fsServer], [rootB], false);
    await waitFor(async () => JSON.stringify(await filesystemSees(host, fsServer)) === JSON.stringify([folder]), {
      what: 'only folder A',
    });

    // The last folder: an empty list does not revoke it in server-filesystem, so the host restarts it.
    await host.setGrants([fsServer], [rootA], false);
    await waitFor(async () => (await filesystemSees(host, fsServer)).length === 0, { what: 'nothing visible' });
    expect(host.getState().consentRequests).toEqual([]);
  });

  it('deleting a granted folder hides it; restoring brings it back (server-everything)', async () => {
    const host = await startHost();
    const keep = tempDir('keep-');
    const parent = tempDir('parent-');
    const doomed = path.join(parent, 'doomed');
    fs.mkdirSync(doomed);
    const keepId = await addRoot(host, keep);
    const doomedId = await addRoot(host, doomed);
    const everything = await addConnectedServer(host, 'everything', everythingServer());
    await host.setGrants([everything], [keepId, doomedId], true);
    const doomedUri = pathToFileURL(doomed).href;
    await waitFor(async () => everythingRoots(await callText(host, everything, 'get-roots-list')).includes(doomedUri), {
      what: 'doomed folder visible',
    });

    fs.rmSync(doomed, { recursive: true });
    // How fast: the benchmark (section 4); here only that it happens.
    await waitFor(() => host.getState().roots.find((root) => root.id === doomedId)?.access.state === 'missing', {
      what: 'missing badge',
    });
    await waitFor(
      async () => {
        const seen = everythingRoots(await callText(host, everything, 'get-roots-list'));
        return !seen.includes(doomedUri) && seen.includes(pathToFileURL(keep).href);
      },
      { what: 'doomed folder hidden' },
    );

    fs.mkdirSync(doomed);
    await waitFor(async () => everythingRoots(await callText(host, everything, 'get-roots-list')).includes(doomedUri), {
      what: 'restored folder visible again',
    });
  });

  it('a call right after each (re)start waits until server-filesystem has had its folders', async () => {
    const host = await startHost();
    const folder = tempDir('first-call-');
    const rootId = await addRoot(host, folder);
    const server = await host.addServer({ name: 'filesystem', transport: filesystemServer(), enabled: false, sharing: true });
    await host.setGrants([server.id], [rootId], true);
    const state = () => host.getState().servers.find((view) => view.id === server.id)?.status.state;
    for (const start of ['enable', 'reconnect', 'reconnect']) {
      if (start === 'enable') await host.setEnabled(server.id, true);
      else await host.reconnect(server.id);
      // The call leaves the moment the session is up, before the server's roots/list is answered.
      await waitFor(() => state() === 'connected', { what: `connected after ${start}`, intervalMs: 1 });
      expect(await filesystemSees(host, server.id)).toEqual([folder]);
    }
  });

  it('two servers see different roots', async () => {
    const host = await startHost();
    const a = tempDir('only-fs-');
    const b = tempDir('only-everything-');
    const rootA = await addRoot(host, a);
    const rootB = await addRoot(host, b);
    const fsServer = await addConnectedServer(host, 'filesystem', filesystemServer());
    const everything = await addConnectedServer(host, 'everything', everythingServer());
    await host.setGrants([fsServer], [rootA], true);
    await host.setGrants([everything], [rootB], true);
    await waitFor(async () => (await filesystemSees(host, fsServer)).includes(a), { what: 'fs sees a' });
    await waitFor(
      async () => everythingRoots(await callText(host, everything, 'get-roots-list')).includes(pathToFileURL(b).href),
      { what: 'everything sees b' },
    );
    expect(await filesystemSees(host, fsServer)).toEqual([a]);
    const everythingSees = everythingRoots(await callText(host, everything, 'get-roots-list'));
    expect(everythingSees).toEqual([pathToFileURL(b).href]);
  });

  it('a folder named with spaces, %, # and non-ASCII, and a symlinked folder, round-trip', async () => {
    const host = await startHost();
    const base = tempDir('odd-');
    const odd = path.join(base, 'My Project 100% #1 — Größe 项目');
    fs.mkdirSync(odd);
    const target = path.join(base, 'real target');
    fs.mkdirSync(target);
    const link = path.join(base, 'link to target');
    fs.symlinkSync(target, link);

    const oddId = await addRoot(host, pathToFileURL(odd).href); // given as a URI
    const linkId = await addRoot(host, link); // given as a path through a symlink
    const linkView = host.getState().roots.find((root) => root.id === linkId);
    expect(linkView).toMatchObject({ path: link, canonicalPath: target, isLink: true, name: 'link to target' });
    expect(host.getState().roots.find((root) => root.id === oddId)?.path).toBe(odd);

    const fsServer = await addConnectedServer(host, 'filesystem', filesystemServer());
    await host.setGrants([fsServer], [oddId, linkId], true);
    await waitFor(async () => (await filesystemSees(host, fsServer)).length === 2, { what: 'two folders' });
    expect((await filesystemSees(host, fsServer)).sort()).toEqual([odd, target].sort());

    // A file inside the odd folder is readable through the server: the URI decoded to the right place.
    fs.writeFileSync(path.join(odd, 'hello.txt'), 'hi from an odd folder');
    const text = await callText(host, fsServer, 'read_text_file', { path: path.join(odd, 'hello.txt') });
    expect(text).toContain('hi from an odd folder');
  });
});
