// Every web contents the app ever creates: no new windows, no navigation away, no <webview>, no
// permissions. http(s) links open in the user's browser; nothing else leaves the app.
import { app, shell, type Session, type WebContents } from 'electron';

export function setupWebContentsGuards(): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
}

export function guardWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) {
      shell.openExternal(url).catch((error: unknown) => console.error('Could not open link:', error));
    }
    return { action: 'deny' };
  });
  // The UI is a single page: any navigation is either a bug or an attack.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The UI needs no camera, notifications, geolocation, HID, serial…: every request is refused. */
export function setupPermissionDenial(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
