// electron/main/index.ts wired end to end against the mock, launched as the installed app would be
// from a desktop menu (packaged, no arguments, no terminal): a real host on a registry in a temp
// config dir, the real registration helper, window, tray and quit path, and the login shell's PATH
// from a real (fixture) shell. This is what runs first in the app, checked without an Electron binary.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { channels } from '../../../shared/contract.js';
import { desktopChannelNames } from '../../../electron/preload/ipc-channel-names.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { FakeBrowserWindow, FakeTray, electronMock, fakeEvent, invokeEvent, invokeHandler } from './electron-mock.js';

const FAKE_SHELL = path.resolve(import.meta.dirname, '../../fixtures/fake-login-shell.sh');
const configDir = path.join(tempDir('mcp-roots-main-'), 'registry');
const shellBin = tempDir('login-shell-bin-');
const saved = {
  argv: process.argv,
  env: { ...process.env },
};
const signalsBefore = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
let window: FakeBrowserWindow;

beforeAll(async () => {
  process.argv = ['/opt/MCP Roots Manager/mcp-roots-manager'];
  process.env.MCP_ROOTS_CONFIG_DIR = configDir;
  process.env.SHELL = FAKE_SHELL;
  process.env.FAKE_SHELL_BIN = shellBin;
  delete process.env.VITE_DEV_SERVER_URL;
  fs.writeFileSync(path.join(shellBin, 'npx'), '#!/bin/sh\n', { mode: 0o755 });
  electronMock.app.isPackaged = true;
  await import('../../../electron/main/index.js');
  await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1), { timeout: 20_000 });
  window = FakeBrowserWindow.instances[0]!;
});

afterAll(() => {
  process.argv = saved.argv;
  for (const key of Object.keys(process.env)) if (!(key in saved.env)) delete process.env[key];
  Object.assign(process.env, saved.env);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) {
      if (!signalsBefore[signal].includes(listener)) process.off(signal, listener);
    }
  }
  removeTempDirs();
});

const call = (channel: string, payload: unknown) => invokeHandler(channel, invokeEvent(window.webContents, window.webContents.mainFrame), payload);

describe('the main process entry', () => {
  it('registers the app:// scheme, sandboxes every renderer, takes the single-instance lock and uses the explicit registry', () => {
    expect(electronMock.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
    expect(electronMock.app.enableSandbox).toHaveBeenCalledOnce();
    expect(electronMock.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(electronMock.app.setPath).toHaveBeenCalledWith('userData', configDir);
  });

  it('persists the registry as config.json in the config dir', () => {
    expect(fs.existsSync(path.join(configDir, 'config.json'))).toBe(true);
  });

  it('hardens the session before the window exists, and a packaged app has no default menu', () => {
    const { session } = electronMock;
    expect(session.setPermissionRequestHandler).toHaveBeenCalled();
    expect(session.webRequest.onHeadersReceived).toHaveBeenCalled();
    expect(session.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
    expect(electronMock.app.listenerCount('web-contents-created')).toBe(1);
    expect(electronMock.Menu.setApplicationMenu).toHaveBeenCalledWith(null);
  });

  it('opens the secure window on app://renderer with the bundled preload and no DevTools', () => {
    const prefs = window.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, devTools: false });
    expect(String(prefs.preload)).toMatch(/[/\\]preload[/\\]index\.cjs$/);
    expect(window.loadURL).toHaveBeenCalledWith('app://renderer/index.html');
    expect(FakeTray.instances).toHaveLength(1);
  });

  it('starts servers with the login shell PATH and shows which npx that is', async () => {
    expect(process.env.PATH?.split(path.delimiter)[0]).toBe(shellBin);
    const state = (await call('state.get', {})) as { ok: true; value: { environment?: unknown } };
    expect(state.value.environment).toEqual({ pathSource: 'login-shell', shell: FAKE_SHELL, npx: path.join(shellBin, 'npx') });
  });

  it('answers every contract and desktop channel, for our window only', async () => {
    expect([...electronMock.ipcHandlers.keys()].sort()).toEqual([...channels, ...desktopChannelNames].sort());
    const state = await call('state.get', {});
    expect(state).toMatchObject({ ok: true, value: { configPath: path.join(configDir, 'config.json'), roots: [] } });
  });

  it('asks the person in a native dialog before a new command is added, and adds nothing when they decline', async () => {
    const server = { name: 'dropper', transport: { type: 'stdio', command: '/tmp/evil', args: ['--now'], env: {} } };
    electronMock.dialog.showMessageBox.mockResolvedValueOnce({ response: 0, checkboxChecked: false });
    expect(await call('servers.add', server)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    const [, options] = electronMock.dialog.showMessageBox.mock.calls.at(-1) as [unknown, { detail: string }];
    expect(options.detail).toContain('/tmp/evil --now');
    expect(((await call('state.get', {})) as { value: { servers: unknown[] } }).value.servers).toEqual([]);

    electronMock.dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: false });
    expect(await call('servers.add', { ...server, enabled: false })).toMatchObject({ ok: true, value: { name: 'dropper' } });
  });

  it('brings the window back on a second launch, and opens a new one if it was closed', () => {
    electronMock.app.emit('second-instance', fakeEvent(), ['/opt/MCP Roots Manager/mcp-roots-manager'], '/');
    expect(window.show).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();

    window.destroyed = true;
    window.emit('closed');
    electronMock.app.emit('second-instance', fakeEvent(), ['/opt/MCP Roots Manager/mcp-roots-manager'], '/');
    expect(FakeBrowserWindow.instances).toHaveLength(2);
    window = FakeBrowserWindow.instances[1]!;
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
