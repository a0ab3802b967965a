// Who may call the host over IPC: only our window's main frame, showing one of our own pages.
// Frames are compared by (process, routing) id, not by object identity.
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

export function createTrustedSenderCheck(
  getWindow: () => BrowserWindow | undefined,
  isAppUrl: (url: string) => boolean,
): SenderCheck {
  return (event) => {
    const window = getWindow();
    if (!window || window.isDestroyed()) return false;
    const contents = window.webContents;
    if (event.sender.id !== contents.id) return false;
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null) return false;
    const main = contents.mainFrame;
    if (frame.processId !== main.processId || frame.routingId !== main.routingId) return false;
    return isAppUrl(frame.url);
  };
}
