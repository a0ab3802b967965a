// The sandboxed preload: exposes `window.rootsManager`, a narrow named API generated from the
// contract ('roots.add' -> rootsManager.roots.add), event subscriptions that return an unsubscribe
// function, and a few desktop extras. ipcRenderer itself never reaches the page.
//
// Bundled to one CommonJS file by vite.preload.config.ts (sandboxed preloads can only require
// 'electron'). The build swaps shared/contract.ts for its channel and event names only, so zod is
// not bundled; importing anything else from the contract here fails that build on purpose.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { channels, eventNames, type EventName } from '../../shared/contract.js';
import { buildPreloadApi, type PreloadApi } from '../../shared/preload-api.js';
import type { Result } from '../../shared/result.js';
import { eventChannel, type DesktopChannel } from './ipc-channel-names.js';

export interface DesktopApi {
  /** The native folder picker; resolves to [] when the user cancels. */
  pickFolders(options?: { title?: string }): Promise<string[]>;
  /** Paths of dropped File objects; files not backed by disk are left out. Pass an array, not a FileList. */
  pathsForFiles(files: readonly File[]): string[];
  /** Opens the nearest folder of this absolute path that is there in the file manager; resolves to the folder opened. */
  openFolder(path: string): Promise<string>;
}

export type RootsManagerApi = PreloadApi & { readonly desktop: DesktopApi };

// Exactly one argument per call: the main process refuses anything else.
function invoke(channel: string, input: unknown): Promise<Result<unknown>> {
  return ipcRenderer.invoke(channel, input) as Promise<Result<unknown>>;
}

function subscribe(event: EventName, listener: (payload: unknown) => void): () => void {
  if (typeof listener !== 'function') throw new TypeError('listener must be a function');
  // The IpcRendererEvent (and its sender) stays here; the page gets the payload only.
  const forward = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
  ipcRenderer.on(eventChannel(event), forward);
  return () => {
    ipcRenderer.removeListener(eventChannel(event), forward);
  };
}

function desktopCall(channel: DesktopChannel, input: unknown): Promise<Result<unknown>> {
  return invoke(channel, input);
}

const desktop: DesktopApi = {
  async pickFolders(options) {
    const result = (await desktopCall('dialog.pickFolders', options ?? {})) as Result<string[]>;
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  },
  pathsForFiles(files) {
    const paths: string[] = [];
    for (const file of Array.from(files)) {
      try {
        const filePath = webUtils.getPathForFile(file);
        if (filePath) paths.push(filePath);
      } catch {
        // Not a File object: nothing to resolve.
      }
    }
    return paths;
  },
  async openFolder(path) {
    const result = (await desktopCall('shell.openFolder', { path })) as Result<string>;
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  },
};

const rootsManager: RootsManagerApi = { ...buildPreloadApi(channels, eventNames, invoke, subscribe), desktop };

contextBridge.exposeInMainWorld('rootsManager', rootsManager);
