// Every web contents the app ever creates: no new windows, no navigation away (by a link, a frame
// or a server redirect), no <webview>, no permissions. The UI has no links, so nothing is handed
// to the user's browser either: shell.openExternal is not used anywhere.
import { app, type Session, type WebContents } from 'electron';

export function setupWebContentsGuards(): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
}

export function guardWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  // The UI is a single page: any navigation is either a bug or an attack.
  contents.on('will-navigate', (event) => event.preventDefault());
  // Also in subframes (the UI has none) and for navigations a page starts in a frame.
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  // A redirect during a load would take the window to a URL nobody asked for.
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The UI needs no camera, notifications, geolocation, HID, serial…: every request is refused. */
export function setupPermissionDenial(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
