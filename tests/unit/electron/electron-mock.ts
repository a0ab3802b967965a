// The one stand-in for the `electron` module in unit tests. Each test file that needs it says:
//   vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);
// The fakes model only what our glue touches: frames with (process, routing) ids and URLs, windows
// that remember their options, ipcMain/ipcRenderer, contextBridge capturing what is exposed.
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/** An Electron event with preventDefault, as passed to `will-navigate`, `before-quit`, … */
export function fakeEvent(): { preventDefault: ReturnType<typeof vi.fn>; readonly defaultPrevented: boolean } {
  const event = {
    preventDefault: vi.fn(() => {
      prevented = true;
    }),
    get defaultPrevented() {
      return prevented;
    },
  };
  let prevented = false;
  return event;
}

export class FakeWebFrame {
  constructor(
    public processId: number,
    public routingId: number,
    public url: string,
    public parent: FakeWebFrame | null = null,
  ) {}
}

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly mainFrame = new FakeWebFrame(100 + this.id, 1, '');
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | undefined;
  destroyed = false;
  readonly send = vi.fn();

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getURL(): string {
    return this.mainFrame.url;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static readonly instances: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  destroyed = false;
  readonly loadURL = vi.fn(async (url: string) => {
    this.webContents.mainFrame.url = url;
  });
  readonly show = vi.fn();
  readonly hide = vi.fn();
  readonly focus = vi.fn();
  readonly restore = vi.fn();
  readonly isMinimized = vi.fn(() => false);

  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.instances.push(this);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class FakeTray extends EventEmitter {
  static readonly instances: FakeTray[] = [];
  readonly setToolTip = vi.fn();
  readonly setContextMenu = vi.fn();
  constructor(readonly image: unknown) {
    super();
    FakeTray.instances.push(this);
  }
  isDestroyed(): boolean {
    return false;
  }
}

export class FakeNotification extends EventEmitter {
  static readonly instances: FakeNotification[] = [];
  static supported = true;
  static isSupported(): boolean {
    return FakeNotification.supported;
  }
  readonly show = vi.fn();
  readonly close = vi.fn();
  constructor(readonly options: { title: string; body?: string }) {
    super();
    FakeNotification.instances.push(this);
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

// safeStorage's stand-in: reversible, but not readable in the file (XOR), tagged like Chromium's
// "v10" prefix so a value that was not made here fails to decrypt, as the real one does.
const SAFE_STORAGE_TAG = 'v10';
const xor = (bytes: Buffer) => Buffer.from(bytes.map((byte) => byte ^ 0x5a));
const safeStorageDefaults = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: (): string => 'gnome_libsecret',
  encryptString: (plain: string) => Buffer.concat([Buffer.from(SAFE_STORAGE_TAG), xor(Buffer.from(plain, 'utf8'))]),
  decryptString: (encrypted: Buffer) => {
    if (encrypted.subarray(0, SAFE_STORAGE_TAG.length).toString() !== SAFE_STORAGE_TAG) {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    }
    return xor(encrypted.subarray(SAFE_STORAGE_TAG.length)).toString('utf8');
  },
};

function createFakes() {
  const ipcHandlers = new Map<string, Handler>();
  const exposed: Record<string, unknown> = {};
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    whenReady: vi.fn(async () => undefined),
    getPath: vi.fn((name: string) => `/fake/${name}`),
    getVersion: vi.fn(() => '0.0.0-test'),
    getLocale: vi.fn(() => 'en-US'),
    setPath: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => true),
    enableSandbox: vi.fn(),
    quit: vi.fn(),
    exit: vi.fn(),
    dock: { hide: vi.fn() },
  });
  const session = {
    webRequest: { onHeadersReceived: vi.fn() },
    protocol: { handle: vi.fn() },
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    setDevicePermissionHandler: vi.fn(),
  };
  return {
    ipcHandlers,
    exposed,
    app,
    session,
    ipcMain: {
      handle: vi.fn((channel: string, handler: Handler) => {
        if (ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        ipcHandlers.set(channel, handler);
      }),
      removeHandler: vi.fn((channel: string) => ipcHandlers.delete(channel)),
      on: vi.fn(),
    },
    ipcRenderer: Object.assign(new EventEmitter(), {
      invoke: vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: null })),
      send: vi.fn(),
      sendSync: vi.fn(),
    }),
    contextBridge: {
      exposeInMainWorld: vi.fn((key: string, api: unknown) => {
        exposed[key] = api;
      }),
    },
    webUtils: {
      getPathForFile: vi.fn((file: { path?: string }) => {
        if (typeof file !== 'object' || file === null) throw new TypeError('not a File');
        return file.path ?? '';
      }),
    },
    dialog: {
      showOpenDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePaths: [] as string[] })),
      showMessageBox: vi.fn(async (..._args: unknown[]) => ({ response: 0, checkboxChecked: false })),
      showErrorBox: vi.fn(),
    },
    shell: {
      openExternal: vi.fn(async (_url: string) => undefined),
      openPath: vi.fn(async (_path: string) => ''),
      showItemInFolder: vi.fn((_path: string) => undefined),
    },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    safeStorage: {
      isEncryptionAvailable: vi.fn(safeStorageDefaults.isEncryptionAvailable),
      getSelectedStorageBackend: vi.fn(safeStorageDefaults.getSelectedStorageBackend),
      encryptString: vi.fn(safeStorageDefaults.encryptString),
      decryptString: vi.fn(safeStorageDefaults.decryptString),
    },
    Menu: { buildFromTemplate: vi.fn((template: unknown[]) => ({ template })), setApplicationMenu: vi.fn() },
    nativeImage: { createEmpty: vi.fn(() => ({ addRepresentation: vi.fn() })) },
  };
}

export const electronMock = createFakes();

const namedExports = {
  app: electronMock.app,
  BrowserWindow: FakeBrowserWindow,
  Tray: FakeTray,
  Notification: FakeNotification,
  Menu: electronMock.Menu,
  nativeImage: electronMock.nativeImage,
  ipcMain: electronMock.ipcMain,
  ipcRenderer: electronMock.ipcRenderer,
  contextBridge: electronMock.contextBridge,
  webUtils: electronMock.webUtils,
  dialog: electronMock.dialog,
  shell: electronMock.shell,
  protocol: electronMock.protocol,
  safeStorage: electronMock.safeStorage,
  session: { defaultSession: electronMock.session },
};

/** What `import … from 'electron'` sees: named exports, and the same object as default (electron-store uses it). */
export const electronModule = { ...namedExports, default: namedExports };

/** Calls a registered ipcMain handler the way Electron would, as `event` (see `invokeEvent`). */
export async function invokeHandler(channel: string, event: unknown, ...args: unknown[]): Promise<unknown> {
  const handler = electronMock.ipcHandlers.get(channel);
  if (!handler) throw new Error(`No handler for ${channel}`);
  return handler(event, ...args);
}

/** The IpcMainInvokeEvent Electron builds for a call from `frame` inside `contents`. */
export function invokeEvent(contents: FakeWebContents, frame: FakeWebFrame | null) {
  return {
    sender: contents,
    senderFrame: frame,
    processId: frame?.processId ?? 0,
    frameId: frame?.routingId ?? 0,
  };
}

export function resetElectronMock(): void {
  vi.clearAllMocks();
  electronMock.ipcHandlers.clear();
  for (const key of Object.keys(electronMock.exposed)) delete electronMock.exposed[key];
  electronMock.app.removeAllListeners();
  electronMock.ipcRenderer.removeAllListeners();
  electronMock.app.isPackaged = false;
  for (const [name, implementation] of Object.entries(safeStorageDefaults)) {
    (electronMock.safeStorage[name as keyof typeof safeStorageDefaults] as ReturnType<typeof vi.fn>).mockImplementation(implementation);
  }
  FakeBrowserWindow.instances.length = 0;
  FakeTray.instances.length = 0;
  FakeNotification.instances.length = 0;
  FakeNotification.supported = true;
}
