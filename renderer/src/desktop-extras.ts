// Electron-only helpers exposed by the preload. Feature-detected: the browser shell has none.
export interface DesktopExtras {
  pickFolders?: () => Promise<string[]>;
  pathsForFiles?: (files: File[]) => string[];
}

export function desktopExtras(): DesktopExtras {
  const bridge = (window as unknown as { rootsManager?: { desktop?: DesktopExtras } }).rootsManager;
  return bridge?.desktop ?? {};
}
