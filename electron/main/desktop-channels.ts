// Channels only the desktop app has (the native folder picker, opening a folder in the file
// manager), beside the shared contract.
// Same rules as the contract: a zod schema per channel, parsed before the handler runs, a Result out.
import path from 'node:path';
import { dialog, shell, type BrowserWindow, type OpenDialogOptions } from 'electron';
import { z } from 'zod';
import { fail, ok, toHostError, type Result } from '../../shared/result.js';
import type { DesktopChannel } from '../preload/ipc-channel-names.js';
import { folderToOpen } from './folder-to-open.js';

export const desktopSchemas = {
  'dialog.pickFolders': z.object({ title: z.string().max(200).optional() }).strict(),
  'shell.openFolder': z
    .object({ path: z.string().min(1).max(4096).refine((value) => path.isAbsolute(value) && !value.includes('\0'), 'must be an absolute path') })
    .strict(),
} as const satisfies Record<DesktopChannel, z.ZodType>;

export interface DesktopDeps {
  getWindow(): BrowserWindow | undefined;
  platform?: NodeJS.Platform;
}

type Handlers = {
  [C in DesktopChannel]: (deps: DesktopDeps, input: z.output<(typeof desktopSchemas)[C]>) => Promise<Result<unknown>>;
};

const handlers: Handlers = {
  'dialog.pickFolders': async (deps, { title }) => {
    const properties: OpenDialogOptions['properties'] = ['openDirectory', 'multiSelections', 'dontAddToRecent'];
    if ((deps.platform ?? process.platform) === 'darwin') properties.push('createDirectory');
    // No defaultPath: on Windows the dialog then starts at "This PC", so any drive or share can be picked.
    const options: OpenDialogOptions = { title: title ?? 'Add folders', buttonLabel: 'Add', properties };
    const window = deps.getWindow();
    const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return ok(picked.canceled ? [] : picked.filePaths);
  },
  // The folder of a file a server changed, in the file manager: opened, never a file run (folder-to-open.ts).
  'shell.openFolder': async (deps, { path: target }) => {
    const folder = folderToOpen(target, deps.platform ?? process.platform);
    if (!folder) return fail('not-found', `Nothing of ${target} is there to open.`);
    if (folder.how === 'reveal') {
      shell.showItemInFolder(folder.path);
      return ok(folder.path);
    }
    const error = await shell.openPath(folder.path);
    return error ? fail('internal', `Could not open ${folder.path}: ${error}`) : ok(folder.path);
  },
};

/** Validates and runs one desktop call. Never throws. */
export async function dispatchDesktop(deps: DesktopDeps, channel: DesktopChannel, payload: unknown): Promise<Result<unknown>> {
  const parsed = desktopSchemas[channel].safeParse(payload ?? {});
  if (!parsed.success) return fail('invalid-input', z.prettifyError(parsed.error));
  try {
    const handler = handlers[channel] as (deps: DesktopDeps, input: unknown) => Promise<Result<unknown>>;
    return await handler(deps, parsed.data);
  } catch (error) {
    return { ok: false, error: toHostError(error) };
  }
}
