// Electron-only helpers exposed by the preload. Feature-detected: the browser shell has none.
export interface DesktopExtras {
  pickFolders?: () => Promise<string[]>;
  pathsForFiles?: (files: File[]) => string[];
  /** The file manager at this folder (the nearest one that is there); the browser shell has no such thing. */
  openFolder?: (path: string) => Promise<string>;
}

export function desktopExtras(): DesktopExtras {
  const bridge = (window as unknown as { rootsManager?: { desktop?: DesktopExtras } }).rootsManager;
  return bridge?.desktop ?? {};
}
