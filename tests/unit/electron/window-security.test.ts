// The window and everything that keeps the page in its box: web preferences, new-window and
// navigation guards, permissions, CSP, and where the UI is allowed to come from.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import type { BrowserWindow, Session, WebContents } from 'electron';
import { contentSecurityPolicy, setupContentSecurityPolicy } from '../../../electron/main/content-security-policy.js';
import { createMainWindow, hideOnClose, secureWebPreferences } from '../../../electron/main/main-window.js';
import { rendererLocation } from '../../../electron/main/renderer-location.js';
import { rendererResponse, resolveRendererFile } from '../../../electron/main/renderer-protocol.js';
import {
  guardWebContents,
  setupPermissionDenial,
  setupWebContentsGuards,
} from '../../../electron/main/web-contents-guards.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { FakeBrowserWindow, FakeWebContents, electronMock, fakeEvent, resetElectronMock } from './electron-mock.js';

beforeEach(() => resetElectronMock());
afterEach(() => removeTempDirs());

describe('the main window', () => {
  it('is created with the secure web preferences, every flag explicit', () => {
    createMainWindow({ preloadPath: '/app/dist/preload/index.cjs', entryUrl: 'app://renderer/index.html' });
    const window = FakeBrowserWindow.instances[0]!;
    expect(window.options.webPreferences).toEqual({
      preload: '/app/dist/preload/index.cjs',
      devTools: false,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    });
    expect(window.options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(secureWebPreferences('/p.cjs')).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
  });

  it('has DevTools only when asked for (development)', () => {
    createMainWindow({ preloadPath: '/p.cjs', entryUrl: 'app://renderer/index.html', devTools: true });
    expect(FakeBrowserWindow.instances[0]!.options.webPreferences).toMatchObject({ devTools: true });
    expect(secureWebPreferences('/p.cjs')).toMatchObject({ devTools: false });
  });

  it('loads the entry URL and shows itself only when ready', () => {
    createMainWindow({ preloadPath: '/p.cjs', entryUrl: 'app://renderer/index.html' });
    const window = FakeBrowserWindow.instances[0]!;
    expect(window.options).toMatchObject({ show: false, title: 'MCP Roots Manager' });
    expect(window.loadURL).toHaveBeenCalledWith('app://renderer/index.html');
    expect(window.show).not.toHaveBeenCalled();
    window.emit('ready-to-show');
    expect(window.show).toHaveBeenCalledOnce();
  });

  it('hides on close while the tray holds the app, and closes when quitting', () => {
    const window = new FakeBrowserWindow({});
    let quitting = false;
    hideOnClose(window as unknown as BrowserWindow, () => !quitting);
    const first = fakeEvent();
    window.emit('close', first);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(window.hide).toHaveBeenCalled();
    quitting = true;
    const second = fakeEvent();
    window.emit('close', second);
    expect(second.preventDefault).not.toHaveBeenCalled();
  });
});

describe('new windows and navigation', () => {
  function guarded(): FakeWebContents {
    const contents = new FakeWebContents();
    guardWebContents(contents as unknown as WebContents);
    return contents;
  }

  it.each([
    'https://modelcontextprotocol.io/docs',
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'app://renderer/index.html',
    'smb://server/share',
    'not a url',
  ])('window.open(%s) is denied, and nothing is handed to the browser (the UI has no links)', (url) => {
    const contents = guarded();
    expect(contents.windowOpenHandler?.({ url })).toEqual({ action: 'deny' });
    expect(electronMock.shell.openExternal).not.toHaveBeenCalled();
  });

  it('prevents every navigation, in any frame and by redirect, and every <webview>', () => {
    const contents = guarded();
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      for (const url of ['https://evil.example/', 'app://renderer/other.html', 'file:///tmp/x.html']) {
        const event = fakeEvent();
        contents.emit(name, event, url);
        expect(event.preventDefault, `${name} ${url}`).toHaveBeenCalled();
      }
    }
    const webview = fakeEvent();
    contents.emit('will-attach-webview', webview, {}, {});
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('guards every web contents the app creates', () => {
    setupWebContentsGuards();
    const contents = new FakeWebContents();
    electronMock.app.emit('web-contents-created', fakeEvent(), contents);
    expect(contents.windowOpenHandler?.({ url: 'https://x.example' })).toEqual({ action: 'deny' });
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      expect(contents.listenerCount(name), name).toBe(1);
    }
  });
});

describe('permissions', () => {
  it('denies every permission request and check', () => {
    setupPermissionDenial(electronMock.session as unknown as Session);
    const request = electronMock.session.setPermissionRequestHandler.mock.calls[0]![0] as (
      contents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
    ) => void;
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      request({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    const check = electronMock.session.setPermissionCheckHandler.mock.calls[0]![0] as () => boolean;
    expect(check()).toBe(false);
    const device = electronMock.session.setDevicePermissionHandler.mock.calls[0]![0] as () => boolean;
    expect(device()).toBe(false);
  });
});

describe('content security policy', () => {
  it('is strict in production', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });

  it('lets the dev server in only in development', () => {
    expect(contentSecurityPolicy('http://localhost:5173')).toContain("connect-src 'self' ws://localhost:5173");
  });

  it('replaces any CSP on our pages and leaves other responses alone', () => {
    const location = rendererLocation({ isPackaged: true });
    setupContentSecurityPolicy(electronMock.session as unknown as Session, location.isAppUrl, 'default-src \'none\'');
    const listener = electronMock.session.webRequest.onHeadersReceived.mock.calls[0]![0] as (
      details: { url: string; responseHeaders?: Record<string, string[]> },
      callback: (response: unknown) => void,
    ) => void;
    const ours = vi.fn();
    listener({ url: 'app://renderer/index.html', responseHeaders: { 'content-security-policy': ['*'], 'X-Other': ['1'] } }, ours);
    expect(ours).toHaveBeenCalledWith({
      responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': ["default-src 'none'"] },
    });
    const theirs = vi.fn();
    listener({ url: 'https://example.com/' }, theirs);
    expect(theirs).toHaveBeenCalledWith({});
  });
});

describe('where the UI may come from', () => {
  it('uses app://renderer in a packaged app even when VITE_DEV_SERVER_URL is set', () => {
    const location = rendererLocation({ devServerUrl: 'http://localhost:5173', isPackaged: true });
    expect(location.entryUrl).toBe('app://renderer/index.html');
    expect(location.devServerOrigin).toBeUndefined();
  });

  it('uses a loopback dev server in development, and only that origin is ours', () => {
    const location = rendererLocation({ devServerUrl: 'http://localhost:5173/', isPackaged: false });
    expect(location.entryUrl).toBe('http://localhost:5173/');
    expect(location.isAppUrl('http://localhost:5173/src/main.tsx')).toBe(true);
    expect(location.isAppUrl('http://localhost:5174/')).toBe(false);
    expect(location.isAppUrl('app://renderer/index.html')).toBe(false);
  });

  it('refuses a dev server that is not on this machine', () => {
    expect(() => rendererLocation({ devServerUrl: 'https://evil.example/', isPackaged: false })).toThrow(/localhost/);
    expect(() => rendererLocation({ devServerUrl: 'file:///tmp/index.html', isPackaged: false })).toThrow(/localhost/);
  });

  it.each([
    ['app://renderer/index.html', true],
    ['app://renderer/assets/index-abc.js', true],
    ['app://other/index.html', false],
    ['https://renderer/index.html', false],
    ['file:///work/dist/renderer/index.html', false],
    ['garbage', false],
  ])('isAppUrl(%s) is %s', (url, expected) => {
    expect(rendererLocation({ isPackaged: true }).isAppUrl(url)).toBe(expected);
  });
});

describe('the app:// protocol', () => {
  function rendererDir(): string {
    const parent = tempDir('mcp-roots-renderer-');
    const dir = path.join(parent, 'renderer');
    fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>MCP Roots Manager</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'main.js'), 'console.log(1)');
    // The file a traversal would be after: beside the renderer folder, not in it.
    fs.writeFileSync(path.join(parent, 'secret.txt'), 'secret');
    return dir;
  }

  it('serves the renderer folder with the CSP and the right content type', async () => {
    const dir = rendererDir();
    const page = await rendererResponse(dir, 'app://renderer/', "default-src 'none'");
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(await page.text()).toContain('MCP Roots Manager');
    const script = await rendererResponse(dir, 'app://renderer/assets/main.js', 'x');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await rendererResponse(dir, 'app://renderer/missing.js', 'x')).status).toBe(404);
  });

  it('does not follow a symlink out of the renderer folder, and serves one that stays inside', async () => {
    const dir = rendererDir();
    fs.symlinkSync(path.join(dir, '..', 'secret.txt'), path.join(dir, 'assets', 'escape.txt'));
    fs.symlinkSync(path.join(dir, '..'), path.join(dir, 'parent'));
    fs.symlinkSync(path.join(dir, 'assets', 'main.js'), path.join(dir, 'alias.js'));
    for (const url of ['app://renderer/assets/escape.txt', 'app://renderer/parent/secret.txt']) {
      const response = await rendererResponse(dir, url, 'x');
      expect(response.status, url).toBe(404);
      expect(await response.text()).not.toContain('secret');
    }
    const inside = await rendererResponse(dir, 'app://renderer/alias.js', 'x');
    expect(inside.status).toBe(200);
    expect(await inside.text()).toBe('console.log(1)');
  });

  it('serves a renderer folder that is itself reached through a symlink', async () => {
    const dir = rendererDir();
    const link = path.join(tempDir('mcp-roots-link-'), 'renderer');
    fs.symlinkSync(dir, link);
    expect((await rendererResponse(link, 'app://renderer/index.html', 'x')).status).toBe(200);
  });

  it.each([
    'app://renderer/../secret.txt',
    'app://renderer/%2e%2e/secret.txt',
    'app://renderer/..%2fsecret.txt',
    'app://renderer/assets/..%2f..%2fsecret.txt',
    'app://renderer/..%2f..%2fetc%2fpasswd',
    'app://renderer/assets/..%5c..%5csecret.txt',
    'app://renderer/%00index.html',
    'app://renderer/%E0%A4%A',
    'app://other/index.html',
    'https://renderer/index.html',
  ])('never leaves the renderer folder: %s', async (url) => {
    const dir = rendererDir();
    const file = resolveRendererFile(dir, url);
    if (file !== undefined) expect(path.relative(dir, file).startsWith('..')).toBe(false);
    const response = await rendererResponse(dir, url, 'x');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('secret');
  });
});
