// Updates for installed copies: planned, and off until a release channel exists. electron-builder
// writes the `publish` section of electron-builder.yml into the package (resources/app-update.yml)
// and electron-updater reads it there. While RELEASE_CHANNEL is unset the app asks no server for
// anything and does not even load the updater.

/** The channel installed copies follow ('latest', 'beta'…); set it when releases are published there. */
export const RELEASE_CHANNEL: string | undefined = undefined;

export type UpdatePlan = { enabled: false; reason: string } | { enabled: true; channel: string };

export function updatePlan(isPackaged: boolean, channel: string | undefined = RELEASE_CHANNEL): UpdatePlan {
  if (!isPackaged) return { enabled: false, reason: 'a development build is never updated' };
  if (!channel) return { enabled: false, reason: 'no release channel exists yet' };
  return { enabled: true, channel };
}

/** The part of electron-updater's AppUpdater this uses. */
export interface Updater {
  channel: string | null;
  autoDownload: boolean;
  checkForUpdatesAndNotify(): Promise<unknown>;
}

export async function setupAutoUpdates(plan: UpdatePlan, loadUpdater: () => Promise<Updater> = loadElectronUpdater): Promise<void> {
  if (!plan.enabled) return;
  try {
    const updater = await loadUpdater();
    updater.channel = plan.channel;
    updater.autoDownload = true;
    await updater.checkForUpdatesAndNotify();
  } catch (error) {
    // An update check must never stop the app: it works offline like before.
    console.warn('Update check failed:', error);
  }
}

async function loadElectronUpdater(): Promise<Updater> {
  const module = await import('electron-updater');
  return module.autoUpdater ?? (module as unknown as { default: { autoUpdater: Updater } }).default.autoUpdater;
}
