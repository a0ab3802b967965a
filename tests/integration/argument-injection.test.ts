// server-filesystem given its folders on the command line (no roots capability at all).
import { afterEach, describe, expect, it } from 'vitest';
import { injectRoots, usesRootPlaceholders } from '../../electron/host/argument-injection.js';
import { addRoot, callText, startHost, stopHosts } from '../support/host-harness.js';
import { allowedDirectories, FILESYSTEM_ENTRY, removeTempDirs, tempDir, waitFor } from '../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('argument injection', () => {
  it('expands ${roots} as arguments and ${roots:SEP} inside values', () => {
    const transport = {
      type: 'stdio' as const,
      command: 'srv',
      args: ['--dirs', '${roots}', '--joined=${roots:,}'],
      env: { ALLOWED: '${roots}', OTHER: 'x' },
    };
    expect(usesRootPlaceholders(transport)).toBe(true);
    expect(usesRootPlaceholders({ ...transport, args: [], env: {} })).toBe(false);
    expect(injectRoots(transport, ['/a', '/b c'])).toEqual({
      type: 'stdio',
      command: 'srv',
      args: ['--dirs', '/a', '/b c', '--joined=/a,/b c'],
      env: { ALLOWED: '/a:/b c', OTHER: 'x' },
    });
  });

  it('an argument-injected server-filesystem serves exactly the granted folders and follows grant changes', async () => {
    const host = await startHost();
    const a = tempDir('inject-a-');
    const b = tempDir('inject-b-');
    const rootA = await addRoot(host, a);
    const rootB = await addRoot(host, b);
    const server = await host.addServer({
      name: 'fs-args',
      transport: { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, '${roots}'], env: {} },
      enabled: true,
      sharing: true,
    });
    const status = () => host.getState().servers.find((s) => s.id === server.id)?.status;
    // No folder granted: it waits instead of crash-looping.
    await waitFor(() => status()?.error?.startsWith('Waiting for a granted folder'), { what: 'waiting state' });

    await host.setGrants([server.id], [rootA], true);
    await waitFor(async () => JSON.stringify(allowedDirectories(await callText(host, server.id, 'list_allowed_directories'))) === JSON.stringify([a]), {
      what: 'folder A',
    });
    // It never asked for roots: the capability was not declared.
    expect(status()?.rootsRequestCount).toBe(0);

    await host.setGrants([server.id], [rootB], true);
    await waitFor(async () => allowedDirectories(await callText(host, server.id, 'list_allowed_directories')).length === 2, {
      what: 'both folders',
    });
    expect(host.activity(server.id).some((entry) => entry.message === 'Restarted with the new folders as arguments.')).toBe(true);

    await host.setGrants([server.id], [rootA, rootB], false);
    await waitFor(() => status()?.state === 'disconnected' && status()?.error?.startsWith('Waiting'), { what: 'waiting again' });
  });
});
