// The one application window: sandboxed, context-isolated, no Node, preload = the bundled CJS file.
import { BrowserWindow, type WebPreferences } from 'electron';
import { PRODUCT_NAME } from '../host/registry/config-dir.js';

/** devTools only in development: in a packaged app they would hand the page's powers to whoever opens them. */
export function secureWebPreferences(preloadPath: string, devTools = false): WebPreferences {
  return {
    preload: preloadPath,
    devTools,
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
  };
}

export interface MainWindowOptions {
  preloadPath: string;
  entryUrl: string;
  icon?: Electron.NativeImage;
  /** Off unless asked for (development). */
  devTools?: boolean;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    title: PRODUCT_NAME,
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: secureWebPreferences(options.preloadPath, options.devTools ?? false),
  });
  window.once('ready-to-show', () => window.show());
  window.loadURL(options.entryUrl).catch((error: unknown) => {
    console.error(`Could not load ${options.entryUrl}:`, error);
  });
  return window;
}

/** Brings the window to the front (second instance, tray "Show", dock click). */
export function revealWindow(window: BrowserWindow | undefined): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** With a tray, closing the window hides it: the servers keep their roots until the user quits. */
export function hideOnClose(window: BrowserWindow, shouldHide: () => boolean): void {
  window.on('close', (event) => {
    if (!shouldHide()) return;
    event.preventDefault();
    window.hide();
  });
}
