// The desktop app, as a table of contents: each feature is set up by one function in its own file.
// Only this folder (and the preload) imports `electron`; the host it drives is plain Node (electron/host).
import path from 'node:path';
import { app, dialog, ipcMain, session, type BrowserWindow, type Tray } from 'electron';
import type { RootsHost } from '../host/roots-host.js';
import { setupApplicationMenu } from './app-menu.js';
import { createAppHost } from './app-host.js';
import { setupAutoUpdates, updatePlan } from './auto-update.js';
import { chooseConfigDir } from './config-location.js';
import { confirmRiskyCalls } from './confirm-risky-calls.js';
import { setupConsentNotifications } from './consent-notifications.js';
import { contentSecurityPolicy, setupContentSecurityPolicy } from './content-security-policy.js';
import { setupGracefulQuit, type QuitState } from './graceful-quit.js';
import { forwardHostEvents } from './host-events.js';
import { registerContractHandlers, registerDesktopHandlers } from './ipc-handlers.js';
import { resolveShellPath } from './login-shell-path.js';
import { createMainWindow, hideOnClose, revealWindow } from './main-window.js';
import { commandLineToolItem } from './command-line-tool.js';
import { claimRegistryOrQuit } from './one-host.js';
import { rendererLocation } from './renderer-location.js';
import { registerAppScheme, serveRenderer } from './renderer-protocol.js';
import { claimSingleInstance } from './single-instance.js';
import { appIconImage, setupTray } from './tray.js';
import { createTrustedSenderCheck } from './trusted-sender.js';
import { setupPermissionDenial, setupWebContentsGuards } from './web-contents-guards.js';

// Built layout: dist/electron/main/desktop-app.js, dist/preload/index.cjs, dist/renderer/index.html.
const preloadPath = path.join(import.meta.dirname, '../../preload/index.cjs');
const rendererDir = path.join(import.meta.dirname, '../../renderer');

const location = rendererLocation({ devServerUrl: process.env.VITE_DEV_SERVER_URL, isPackaged: app.isPackaged });
const configDir = chooseConfigDir(process.argv, process.env, app.getPath('userData'));
// An explicit registry gets its own Electron profile too, so the single-instance lock is per registry.
if (configDir.explicit) app.setPath('userData', configDir.dir);

let mainWindow: BrowserWindow | undefined;
let host: RootsHost | undefined;
let quit: QuitState | undefined;
// Held here: a Tray that is garbage-collected vanishes from the status area.
let tray: Tray | undefined;
let ready = false;

// Every renderer sandboxed, whatever a window's options say.
app.enableSandbox();
registerAppScheme();
if (claimSingleInstance(onSecondInstance)) {
  // The command line on the user's PATH: in the tray's menu, and on macOS in the menu bar.
  const installCommandLine = commandLineToolItem();
  setupApplicationMenu(app.isPackaged, process.platform, installCommandLine ? [installCommandLine] : []);
  setupWebContentsGuards();
  // Asked while Electron starts, so the login shell's time mostly overlaps it. A development
  // build is started from a terminal and has its PATH.
  const shellPath = resolveShellPath({ ask: app.isPackaged && process.stdout.isTTY !== true });
  app
    .whenReady()
    .then(() => onReady(shellPath))
    .catch(failToStart);
} else {
  app.quit();
}

async function onReady(shellPath: ReturnType<typeof resolveShellPath>): Promise<void> {
  const csp = contentSecurityPolicy(location.devServerOrigin);
  setupPermissionDenial(session.defaultSession);
  setupContentSecurityPolicy(session.defaultSession, location.isAppUrl, csp);
  serveRenderer(session.defaultSession, rendererDir, csp);

  // Before the host starts any server: they are spawned with this PATH.
  const resolved = await shellPath;
  process.env.PATH = resolved.path;
  if (resolved.error) console.warn(`Using the inherited PATH: ${resolved.error}`);

  // One app host per registry: not a second set of the same servers beside `mcp-roots serve`.
  if (!claimRegistryOrQuit(configDir.dir)) return;
  host = await createAppHost(configDir.dir, { shellPath: resolved });
  quit = setupGracefulQuit(host);
  await host.start();

  const isTrustedSender = createTrustedSenderCheck(() => mainWindow, location.isAppUrl);
  const current = host;
  registerContractHandlers(ipcMain, host, isTrustedSender, confirmRiskyCalls(() => current.registrySnapshot, () => mainWindow));
  registerDesktopHandlers(ipcMain, { getWindow: () => mainWindow }, isTrustedSender);
  forwardHostEvents(host, () => mainWindow?.webContents, location.isAppUrl);

  setupTrayIfPossible(host);
  setupConsentNotifications(host, {
    isFocused: () => mainWindow?.isFocused() ?? false,
    show: showMainWindow,
    systemLocale: () => app.getLocale(),
  });
  ready = true;
  showMainWindow();
  app.on('activate', showMainWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  void setupAutoUpdates(updatePlan(app.isPackaged));
}

/**
 * Another launch handed over to this one. Before the window exists (the host is still starting) the
 * window opens focused anyway once ready; after it was closed (macOS, or no tray) it opens again.
 */
function onSecondInstance(): void {
  if (ready) showMainWindow();
}

function showMainWindow(): void {
  if (mainWindow && !mainWindow.isDestroyed()) {
    revealWindow(mainWindow);
    return;
  }
  mainWindow = createMainWindow({ preloadPath, entryUrl: location.entryUrl, icon: appIconImage(), devTools: !app.isPackaged });
  hideOnClose(mainWindow, () => tray !== undefined && !(quit?.isQuitting() ?? false));
  mainWindow.on('closed', () => {
    mainWindow = undefined;
  });
}

function setupTrayIfPossible(current: RootsHost): void {
  try {
    const installCommandLine = commandLineToolItem();
    tray = setupTray(current, { show: showMainWindow, quit: () => app.quit(), more: installCommandLine ? [installCommandLine] : [] });
  } catch (error) {
    // Some Linux desktops have no status area: the window then simply quits on close.
    console.warn('No tray icon:', error);
  }
}

function failToStart(error: unknown): void {
  console.error('MCP Roots Manager could not start:', error);
  dialog.showErrorBox('MCP Roots Manager could not start', error instanceof Error ? error.message : String(error));
  void (host?.stop() ?? Promise.resolve()).finally(() => app.exit(1));
}
