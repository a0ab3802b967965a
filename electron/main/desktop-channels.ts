// Channels only the desktop app has (native dialogs, the file manager), beside the shared contract.
// Same rules as the contract: a zod schema per channel, parsed before the handler runs, a Result out.
import fs from 'node:fs/promises';
import { dialog, shell, type BrowserWindow, type OpenDialogOptions } from 'electron';
import { z } from 'zod';
import { fail, ok, toHostError, type Result } from '../../shared/result.js';
import type { RootsHost } from '../host/roots-host.js';
import type { DesktopChannel } from '../preload/ipc-channel-names.js';

export const desktopSchemas = {
  'dialog.pickFolders': z.object({ title: z.string().max(200).optional() }).strict(),
  'shell.openRoot': z.object({ rootId: z.string().min(1).max(128) }).strict(),
} as const satisfies Record<DesktopChannel, z.ZodType>;

export interface DesktopDeps {
  host: Pick<RootsHost, 'getState'>;
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
  // Takes a root id, never a path: the renderer cannot make the shell open (run) an arbitrary file.
  'shell.openRoot': async (deps, { rootId }) => {
    const root = deps.host.getState().roots.find((candidate) => candidate.id === rootId);
    if (!root) return fail('not-found', `No root with id ${rootId}.`);
    const stats = await fs.stat(root.canonicalPath).catch(() => undefined);
    if (!stats) return fail('missing', `${root.canonicalPath} is not reachable.`);
    if (!stats.isDirectory()) return fail('not-directory', `${root.canonicalPath} is not a folder.`);
    const error = await shell.openPath(root.canonicalPath);
    return error ? fail('internal', error) : ok(null);
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
