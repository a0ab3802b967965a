// server-filesystem given its folders on the command line (no roots capability at all).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { injectRoots, usesRootPlaceholders } from '../../electron/host/launch/argument-injection.js';
import { addRoot, callText, startHost, stopHosts } from '../support/host-harness.js';
import { allowedDirectories, FILESYSTEM_ENTRY, removeTempDirs, tempDir, waitFor } from '../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('argument injection', () => {
  it('refuses a join whose separator is inside a folder name, or empty, and names the folder', () => {
    const transport = { type: 'stdio' as const, command: 'srv', args: ['--joined=${roots:,}'], env: {} };
    expect(() => injectRoots(transport, ['/a', '/home/Smith, John'])).toThrow(
      expect.objectContaining({ code: 'invalid-input', message: expect.stringContaining('"/home/Smith, John" contains the separator ","') }),
    );
    // The default separator (the OS path delimiter) is held to the same rule.
    expect(() => injectRoots({ ...transport, args: ['x'], env: { DIRS: '${roots}' } }, [`/a${path.delimiter}b`])).toThrow(
      expect.objectContaining({ code: 'invalid-input' }),
    );
    expect(() => injectRoots({ ...transport, args: ['${roots:}'] }, ['/a'])).toThrow(expect.objectContaining({ code: 'invalid-input' }));
    // A whole-argument ${roots} carries any name: one argument per folder.
    expect(injectRoots({ ...transport, args: ['${roots}'] }, ['/home/Smith, John'])).toMatchObject({ args: ['/home/Smith, John'] });
  });

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

  it('refuses to start a server whose joined ${roots:,} would split a folder named "Smith, John", and says which', async () => {
    const host = await startHost();
    const base = tempDir('inject-sep-');
    const smith = path.join(base, 'Smith, John');
    fs.mkdirSync(smith);
    const root = await addRoot(host, smith);
    const server = await host.addServer({
      name: 'fs-joined',
      // Would get `--dirs=<base>/Smith, John` and read two folders from it.
      transport: { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY, '--dirs=${roots:,}'], env: {} },
      enabled: true,
      sharing: true,
    });
    await host.setGrants([server.id], [root], true);
    const status = () => host.getState().servers.find((s) => s.id === server.id)?.status;
    await waitFor(() => status()?.state === 'error', { what: 'refused to start' });
    expect(status()?.error).toContain(`"${smith}" contains the separator ","`);
    expect(status()?.pid).toBeUndefined();
    expect(host.activity(server.id).some((entry) => entry.kind === 'error' && entry.message.includes('Smith, John'))).toBe(true);
  });
});
