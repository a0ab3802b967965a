// electron/main/index.ts wired end to end against the mock: a real host on a registry in a temp
// config dir, the real registration helper, window, tray and quit path. This is what runs first in
// the app, checked without an Electron binary.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { channels } from '../../../shared/contract.js';
import { desktopChannelNames } from '../../../electron/preload/ipc-channel-names.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { FakeBrowserWindow, FakeTray, electronMock, fakeEvent, invokeEvent, invokeHandler } from './electron-mock.js';

const configDir = path.join(tempDir('mcp-roots-main-'), 'registry');
const savedEnv = { config: process.env.MCP_ROOTS_CONFIG_DIR, dev: process.env.VITE_DEV_SERVER_URL };
const signalsBefore = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
let window: FakeBrowserWindow;

beforeAll(async () => {
  process.env.MCP_ROOTS_CONFIG_DIR = configDir;
  delete process.env.VITE_DEV_SERVER_URL;
  await import('../../../electron/main/index.js');
  await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1), { timeout: 10_000 });
  window = FakeBrowserWindow.instances[0]!;
});

afterAll(() => {
  for (const [key, value] of [['MCP_ROOTS_CONFIG_DIR', savedEnv.config], ['VITE_DEV_SERVER_URL', savedEnv.dev]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) {
      if (!signalsBefore[signal].includes(listener)) process.off(signal, listener);
    }
  }
  removeTempDirs();
});

describe('the main process entry', () => {
  it('registers the app:// scheme, takes the single-instance lock and uses the explicit registry', () => {
    expect(electronMock.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
    expect(electronMock.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(electronMock.app.setPath).toHaveBeenCalledWith('userData', configDir);
  });

  it('persists the registry as config.json in the config dir', () => {
    expect(fs.existsSync(path.join(configDir, 'config.json'))).toBe(true);
  });

  it('hardens the session before the window exists', () => {
    const { session } = electronMock;
    expect(session.setPermissionRequestHandler).toHaveBeenCalled();
    expect(session.webRequest.onHeadersReceived).toHaveBeenCalled();
    expect(session.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
    expect(electronMock.app.listenerCount('web-contents-created')).toBe(1);
  });

  it('opens the secure window on app://renderer with the bundled preload', () => {
    const prefs = window.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(String(prefs.preload)).toMatch(/[/\\]preload[/\\]index\.cjs$/);
    expect(window.loadURL).toHaveBeenCalledWith('app://renderer/index.html');
    expect(FakeTray.instances).toHaveLength(1);
  });

  it('answers every contract and desktop channel, for our window only', async () => {
    expect([...electronMock.ipcHandlers.keys()].sort()).toEqual([...channels, ...desktopChannelNames].sort());
    const state = await invokeHandler('state.get', invokeEvent(window.webContents, window.webContents.mainFrame), {});
    expect(state).toMatchObject({ ok: true, value: { configPath: path.join(configDir, 'config.json'), roots: [] } });
  });

  it('hides the window to the tray on close, then quits cleanly through before-quit', async () => {
    const close = fakeEvent();
    window.emit('close', close);
    expect(close.preventDefault).toHaveBeenCalled();
    expect(window.hide).toHaveBeenCalled();

    const quit = fakeEvent();
    electronMock.app.emit('before-quit', quit);
    expect(quit.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(electronMock.app.exit).toHaveBeenCalledWith(0));
    const closing = fakeEvent();
    window.emit('close', closing);
    expect(closing.preventDefault).not.toHaveBeenCalled();
  });
});
