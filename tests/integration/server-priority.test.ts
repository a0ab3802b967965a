// The app's own stdio servers run below normal CPU priority, so a burst of list_changed to many
// idle servers is not interrupted by each one waking up (see BuildOptions.lowPriority). The proxy's
// server, which does a host's real work, keeps normal priority.
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTransport } from '../../electron/host/launch/transport-factory.js';
import { startHost, stopHosts } from '../support/host-harness.js';
import { filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('server process priority', () => {
  it('starts the app’s own servers below normal priority', async () => {
    const app = await startHost();
    const server = await app.addServer({ name: 'fs', transport: filesystemServer(), enabled: true, sharing: true });
    const pid = await waitFor(() => app.getState().servers.find((s) => s.id === server.id)?.status.pid, { what: 'the server process' });
    expect(os.getPriority(pid)).toBe(os.constants.priority.PRIORITY_BELOW_NORMAL);
  });

  it('leaves a transport built without the option (the proxy’s) at normal priority', async () => {
    const built = buildTransport({ ...filesystemServer(), args: [...filesystemServer().args, tempDir('prio-')] });
    await built.transport.start();
    try {
      const pid = built.pid?.();
      expect(pid).toBeTypeOf('number');
      expect(os.getPriority(pid as number)).toBe(os.getPriority());
    } finally {
      await built.transport.close();
    }
  });
});
