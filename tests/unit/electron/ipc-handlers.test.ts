// The IPC boundary of the desktop app: a real RootsHost behind the real registration helper and
// sender check; only Electron's ipcMain, windows and frames are fakes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import type { BrowserWindow, IpcMain } from 'electron';
import { channels } from '../../../shared/contract.js';
import { RootsHost } from '../../../electron/host/roots-host.js';
import { folderToOpen } from '../../../electron/main/folder-to-open.js';
import { registerContractHandlers, registerDesktopHandlers } from '../../../electron/main/ipc-handlers.js';
import { desktopChannelNames } from '../../../electron/preload/ipc-channel-names.js';
import { rendererLocation } from '../../../electron/main/renderer-location.js';
import { createTrustedSenderCheck, type SenderCheck } from '../../../electron/main/trusted-sender.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import {
  FakeBrowserWindow,
  FakeWebContents,
  FakeWebFrame,
  electronMock,
  invokeEvent,
  invokeHandler,
  resetElectronMock,
} from './electron-mock.js';

const APP_URL = 'app://renderer/index.html';

let host: RootsHost;
let window: FakeBrowserWindow;
let configFile: string;
let warn: ReturnType<typeof vi.spyOn>;

function trustedEvent() {
  return invokeEvent(window.webContents, window.webContents.mainFrame);
}

function register(check?: SenderCheck): void {
  const isTrustedSender =
    check ?? createTrustedSenderCheck(() => window as unknown as BrowserWindow, rendererLocation({ isPackaged: true }).isAppUrl);
  const ipcMain = electronMock.ipcMain as unknown as IpcMain;
  registerContractHandlers(ipcMain, host, isTrustedSender);
  registerDesktopHandlers(ipcMain, { getWindow: () => window as unknown as BrowserWindow }, isTrustedSender);
}

beforeEach(async () => {
  resetElectronMock();
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  host = new RootsHost({ configDir: tempDir('mcp-roots-ipc-'), runServers: false, stateThrottleMs: 0 });
  await host.start();
  configFile = host.store.path;
  window = new FakeBrowserWindow({});
  await window.loadURL(APP_URL);
  register();
});

afterEach(async () => {
  warn.mockRestore();
  await host.stop();
  removeTempDirs();
});

describe('registerContractHandlers', () => {
  it('registers every contract channel and the desktop channels, and nothing else', () => {
    expect([...electronMock.ipcHandlers.keys()].sort()).toEqual([...channels, ...desktopChannelNames].sort());
  });

  it('runs a call from our window main frame', async () => {
    const folder = tempDir('mcp-roots-folder-');
    const result = await invokeHandler('roots.add', trustedEvent(), { paths: [folder] });
    expect(result).toMatchObject({ ok: true, value: { added: [{ canonicalPath: folder }], failed: [] } });
    expect(host.getState().roots).toHaveLength(1);
  });
});

describe('untrusted senders are dropped before any handler runs', () => {
  const cases: [string, () => ReturnType<typeof invokeEvent>][] = [
    ['another window', () => invokeEvent(new FakeWebContents(), window.webContents.mainFrame)],
    [
      'a subframe of our window',
      () => invokeEvent(window.webContents, new FakeWebFrame(window.webContents.mainFrame.processId, 7, APP_URL, window.webContents.mainFrame)),
    ],
    ['a frame in another process with the same routing id', () => invokeEvent(window.webContents, new FakeWebFrame(9999, 1, APP_URL))],
    ['a frame that navigated away or was destroyed', () => invokeEvent(window.webContents, null)],
    [
      'our main frame showing a foreign page',
      () => {
        window.webContents.mainFrame.url = 'https://evil.example/index.html';
        return trustedEvent();
      },
    ],
    [
      'our main frame on a file:// page',
      () => {
        window.webContents.mainFrame.url = 'file:///tmp/index.html';
        return trustedEvent();
      },
    ],
    [
      'a dev-server page in a packaged app',
      () => {
        window.webContents.mainFrame.url = 'http://localhost:5173/';
        return trustedEvent();
      },
    ],
    [
      'a closed window',
      () => {
        window.destroyed = true;
        return trustedEvent();
      },
    ],
  ];

  it.each(cases)('%s', async (_name, makeEvent) => {
    const addRoots = vi.spyOn(host, 'addRoots');
    const revision = host.getState().revision;
    const folder = tempDir('mcp-roots-folder-');
    const result = await invokeHandler('roots.add', makeEvent(), { paths: [folder] });
    expect(result).toEqual({ ok: false, error: { code: 'unauthorized', message: expect.any(String) } });
    expect(addRoots).not.toHaveBeenCalled();
    expect(host.getState().revision).toBe(revision);
    expect(host.getState().roots).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('untrusted sender'));
  });

  it('drops desktop channels too: no dialog opens for a stranger', async () => {
    const result = await invokeHandler('dialog.pickFolders', invokeEvent(new FakeWebContents(), null), {});
    expect(result).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(electronMock.dialog.showOpenDialog).not.toHaveBeenCalled();
  });

  it('treats a sender check that throws as untrusted', async () => {
    resetElectronMock();
    register(() => {
      throw new Error('frame disposed');
    });
    const addRoots = vi.spyOn(host, 'addRoots');
    const result = await invokeHandler('roots.add', trustedEvent(), { paths: [tempDir()] });
    expect(result).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(addRoots).not.toHaveBeenCalled();
  });
});

describe('malformed payloads are rejected with a typed error and change nothing', () => {
  const payloads: [string, unknown][] = [
    ['paths is not an array', { paths: '/tmp' }],
    ['paths is empty', { paths: [] }],
    ['a path is not a string', { paths: [42] }],
    ['an unknown key', { paths: ['/tmp'], recursive: true }],
    ['no payload at all', undefined],
    ['a number', 42],
    ['a string', 'roots'],
  ];

  it.each(payloads)('roots.add with %s', async (_name, payload) => {
    const addRoots = vi.spyOn(host, 'addRoots');
    const revision = host.getState().revision;
    const fileBefore = fs.readFileSync(configFile, 'utf8');
    const result = await invokeHandler('roots.add', trustedEvent(), payload);
    expect(result).toEqual({ ok: false, error: { code: 'invalid-input', message: expect.any(String) } });
    expect(addRoots).not.toHaveBeenCalled();
    expect(host.getState().revision).toBe(revision);
    expect(fs.readFileSync(configFile, 'utf8')).toBe(fileBefore);
  });

  it('rejects a call with more than one argument (it did not come through the preload)', async () => {
    const addRoots = vi.spyOn(host, 'addRoots');
    const result = await invokeHandler('roots.add', trustedEvent(), { paths: [tempDir()] }, 'extra');
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(addRoots).not.toHaveBeenCalled();
  });

  it('rejects a bad desktop payload before the dialog opens', async () => {
    const result = await invokeHandler('dialog.pickFolders', trustedEvent(), { title: 5 });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(electronMock.dialog.showOpenDialog).not.toHaveBeenCalled();
  });
});

describe('desktop channels', () => {
  it('dialog.pickFolders opens a multi-select directory picker on our window', async () => {
    electronMock.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/a', '/b'] });
    const result = await invokeHandler('dialog.pickFolders', trustedEvent(), {});
    expect(result).toEqual({ ok: true, value: ['/a', '/b'] });
    const [parent, options] = electronMock.dialog.showOpenDialog.mock.calls[0] as [unknown, { properties: string[] }];
    expect(parent).toBe(window);
    expect(options.properties).toEqual(expect.arrayContaining(['openDirectory', 'multiSelections']));
    expect(options.properties).not.toContain('openFile');
  });

  it('dialog.pickFolders answers [] when the user cancels', async () => {
    expect(await invokeHandler('dialog.pickFolders', trustedEvent(), {})).toEqual({ ok: true, value: [] });
  });

  it("shell.openFolder opens a changed file's folder, the nearest one there when it is gone, and never a file", async () => {
    const base = fs.realpathSync(tempDir('mcp-roots-open-'));
    fs.mkdirSync(path.join(base, 'src'));
    fs.writeFileSync(path.join(base, 'src', 'run.sh'), '#!/bin/sh\n');
    expect(await invokeHandler('shell.openFolder', trustedEvent(), { path: path.join(base, 'src', 'run.sh') })).toEqual({ ok: true, value: path.join(base, 'src') });
    expect(await invokeHandler('shell.openFolder', trustedEvent(), { path: path.join(base, 'gone', 'deeper', 'x.txt') })).toEqual({ ok: true, value: base });
    expect(electronMock.shell.openPath.mock.calls).toEqual([[path.join(base, 'src')], [base]]);
    // A symlink at the end is not followed: its folder opens, not where it points.
    fs.symlinkSync('/etc', path.join(base, 'src', 'link'));
    expect(await invokeHandler('shell.openFolder', trustedEvent(), { path: path.join(base, 'src', 'link') })).toEqual({ ok: true, value: path.join(base, 'src') });
    expect(await invokeHandler('shell.openFolder', trustedEvent(), { path: 'relative/x' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(electronMock.shell.openPath).toHaveBeenCalledTimes(3);
  });

  it('shell.openFolder shows a macOS bundle in its parent instead of opening (launching) it', () => {
    const base = fs.realpathSync(tempDir('mcp-roots-open-'));
    fs.mkdirSync(path.join(base, 'Tool.app', 'Contents'), { recursive: true });
    fs.writeFileSync(path.join(base, 'Tool.app', 'Contents', 'Info.plist'), '<plist/>');
    expect(folderToOpen(path.join(base, 'Tool.app', 'gone.txt'), 'darwin')).toEqual({ how: 'reveal', path: path.join(base, 'Tool.app') });
    expect(folderToOpen(path.join(base, 'Tool.app', 'gone.txt'), 'linux')).toEqual({ how: 'open', path: path.join(base, 'Tool.app') });
  });
});

describe('the IPC surface is exactly the contract', () => {
  const contract = [...channels, ...desktopChannelNames].sort();

  it('every ipcMain.handle registration is a contract channel, and every contract channel is registered once', () => {
    const registered = electronMock.ipcMain.handle.mock.calls.map(([channel]) => channel as string).sort();
    expect(registered).toEqual(contract);
    expect(new Set(registered).size).toBe(registered.length);
    // Fire-and-forget listeners would bypass the Result and the sender check: there are none.
    expect(electronMock.ipcMain.on).not.toHaveBeenCalled();
  });

  it('no source file but the registration helper touches ipcMain, and the entry only hands it over', () => {
    const electronDir = path.resolve(import.meta.dirname, '../../../electron');
    const sources = fs
      .readdirSync(electronDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => ({ file: file.split(path.sep).join('/'), text: fs.readFileSync(path.join(electronDir, file), 'utf8') }));
    const touching = sources.filter(({ text }) => /\bipcMain\b/.test(text)).map(({ file }) => file);
    expect(touching.sort()).toEqual(['main/desktop-app.ts', 'main/ipc-handlers.ts']);
    const entry = sources.find(({ file }) => file === 'main/desktop-app.ts')!.text;
    const uses = entry.match(/.*\bipcMain\b.*/g) ?? [];
    expect(uses.filter((line) => !/^import /.test(line)).map((line) => line.trim().split('(')[0])).toEqual([
      'registerContractHandlers',
      'registerDesktopHandlers',
    ]);
    const helper = sources.find(({ file }) => file === 'main/ipc-handlers.ts')!.text;
    // One call site: the sender-checking wrapper.
    expect(helper.match(/ipcMain\.(handle|handleOnce|on|once|addListener)\(/g)).toEqual(['ipcMain.handle(']);
  });
});
