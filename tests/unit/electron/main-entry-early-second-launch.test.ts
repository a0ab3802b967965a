// A second launch while the first is still starting (the host loading, the login shell answering):
// before the window exists. It must not be lost or crash the app: the one window opens once ready.
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { FakeBrowserWindow, electronMock, fakeEvent } from './electron-mock.js';

const saved = { argv: process.argv, config: process.env.MCP_ROOTS_CONFIG_DIR };
const signalsBefore = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
afterAll(() => {
  process.argv = saved.argv;
  if (saved.config === undefined) delete process.env.MCP_ROOTS_CONFIG_DIR;
  else process.env.MCP_ROOTS_CONFIG_DIR = saved.config;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) if (!signalsBefore[signal].includes(listener)) process.off(signal, listener);
  }
  removeTempDirs();
});

it('opens exactly one window, shown, once the app is ready', async () => {
  process.argv = ['/opt/MCP Roots Manager/mcp-roots-manager'];
  process.env.MCP_ROOTS_CONFIG_DIR = path.join(tempDir('mcp-roots-early-'), 'registry');
  let ready!: () => void;
  electronMock.app.whenReady.mockReturnValueOnce(new Promise<undefined>((resolve) => (ready = () => resolve(undefined))));
  await import('../../../electron/main/index.js');

  expect(() => electronMock.app.emit('second-instance', fakeEvent(), ['mcp-roots-manager'], '/')).not.toThrow();
  expect(FakeBrowserWindow.instances).toHaveLength(0);

  ready();
  await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1), { timeout: 20_000 });
  const window = FakeBrowserWindow.instances[0]!;
  window.emit('ready-to-show');
  expect(window.show).toHaveBeenCalled();
  electronMock.app.emit('second-instance', fakeEvent(), ['mcp-roots-manager'], '/');
  expect(window.focus).toHaveBeenCalled();
  expect(FakeBrowserWindow.instances).toHaveLength(1);
});
