// The packaged app's menu: no Reload, no Toggle Developer Tools, anywhere.
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { productionMenuTemplate, setupApplicationMenu } from '../../../electron/main/app-menu.js';
import { electronMock, resetElectronMock } from './electron-mock.js';

beforeEach(() => resetElectronMock());

describe('the application menu', () => {
  it('is removed on Linux and Windows in a packaged app', () => {
    for (const platform of ['linux', 'win32'] as const) {
      electronMock.Menu.setApplicationMenu.mockClear();
      setupApplicationMenu(true, platform);
      expect(electronMock.Menu.setApplicationMenu).toHaveBeenCalledWith(null);
    }
  });

  it('keeps macOS its app, Edit and Window menus (Cmd+Q, copy and paste), and no View menu', () => {
    setupApplicationMenu(true, 'darwin');
    const template = productionMenuTemplate('darwin');
    expect(template?.map((item) => item.role)).toEqual(['appMenu', 'editMenu', 'windowMenu']);
    expect(JSON.stringify(template)).not.toMatch(/toggleDevTools|reload|viewMenu/);
    expect(electronMock.Menu.buildFromTemplate).toHaveBeenCalledWith(template);
    expect(electronMock.Menu.setApplicationMenu).toHaveBeenCalledWith({ template });
  });

  it("leaves Electron's default menu (DevTools, reload) to development builds", () => {
    setupApplicationMenu(false, 'linux');
    expect(electronMock.Menu.setApplicationMenu).not.toHaveBeenCalled();
  });
});
