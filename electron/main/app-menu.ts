// The menu bar of a packaged app. Electron's default menu has View > Reload and Toggle Developer
// Tools (Ctrl+R, Ctrl+Shift+I): in production a reload drops the UI's state and DevTools hands
// the page's powers to whoever opens it. Development keeps the default menu.
import { Menu, type MenuItemConstructorOptions } from 'electron';

/**
 * null: no menu bar (Linux, Windows: copy and paste still work in text fields there). macOS keeps
 * the app and Edit menus, without which Cmd+Q, Cmd+C and Cmd+V do nothing, and the Window menu.
 */
export function productionMenuTemplate(platform: NodeJS.Platform, fileItems: MenuItemConstructorOptions[] = []): MenuItemConstructorOptions[] | null {
  if (platform !== 'darwin') return null;
  // "Install Command Line Tool…" and the like: a File menu, as GitHub Desktop has.
  const file: MenuItemConstructorOptions[] = fileItems.length > 0 ? [{ role: 'fileMenu', submenu: fileItems }] : [];
  return [{ role: 'appMenu' }, ...file, { role: 'editMenu' }, { role: 'windowMenu' }];
}

/** Call before the app is ready, so Electron never installs its default menu. */
export function setupApplicationMenu(isPackaged: boolean, platform: NodeJS.Platform = process.platform, fileItems: MenuItemConstructorOptions[] = []): void {
  if (!isPackaged) return;
  const template = productionMenuTemplate(platform, fileItems);
  Menu.setApplicationMenu(template ? Menu.buildFromTemplate(template) : null);
}
