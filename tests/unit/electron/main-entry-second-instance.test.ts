// A second launch of the app: it hands over to the first and quits before doing anything else.
import { afterAll, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { FakeBrowserWindow, electronMock } from './electron-mock.js';

const savedArgv = process.argv;
afterAll(() => {
  process.argv = savedArgv;
});

it('quits at once without starting a host or a window when another instance holds the lock', async () => {
  process.argv = ['/opt/MCP Roots Manager/mcp-roots-manager'];
  electronMock.app.requestSingleInstanceLock.mockReturnValue(false);
  await import('../../../electron/main/index.js');
  expect(electronMock.app.quit).toHaveBeenCalledOnce();
  expect(electronMock.app.whenReady).not.toHaveBeenCalled();
  expect(electronMock.ipcMain.handle).not.toHaveBeenCalled();
  expect(FakeBrowserWindow.instances).toHaveLength(0);
});
