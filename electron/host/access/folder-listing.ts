// Folders of one folder, for the browser UI's folder picker (a browser cannot open the OS dialog,
// nor learn where a dropped folder lives). Folders only, never files; names and paths, nothing read
// inside. `~` is the home folder, as people type it.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FolderEntry, FolderListing } from '../../../shared/contract.js';
import { fsError, parseRootInput } from '../registry/file-uri.js';

/** A folder with more subfolders than this lists the first ones and says so. */
export const MAX_FOLDER_ENTRIES = 2000;

/** `~` and `~/…` (`~\…` on Windows) -> the home folder; anything else unchanged. */
export function expandHome(input: string, home = os.homedir()): string {
  const trimmed = input.trim();
  return /^~(?=$|[\\/])/.test(trimmed) ? path.join(home, trimmed.slice(1)) : input;
}

export async function listFolders(input: { path?: string | undefined; showHidden?: boolean | undefined }): Promise<FolderListing> {
  const home = os.homedir();
  const asked = input.path?.trim() ? expandHome(input.path, home) : home;
  // The same checks as a root: absolute, no NUL, file:// URIs decoded.
  const dir = path.resolve(parseRootInput(asked));
  let items: import('node:fs').Dirent[];
  try {
    items = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw fsError(error, dir);
  }
  const entries: FolderEntry[] = [];
  for (const item of items) {
    const hidden = item.name.startsWith('.');
    if (hidden && !input.showHidden) continue;
    const full = path.join(dir, item.name);
    let link = false;
    if (item.isSymbolicLink()) {
      // A link to a folder is listed (it is how people reach folders elsewhere); a broken one is not.
      const target = await fs.stat(full).catch(() => undefined);
      if (!target?.isDirectory()) continue;
      link = true;
    } else if (!item.isDirectory()) {
      continue;
    }
    entries.push({ name: item.name, path: full, hidden, link });
  }
  entries.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }));
  const parent = path.dirname(dir);
  return {
    path: dir,
    ...(parent !== dir ? { parent } : {}),
    home,
    entries: entries.slice(0, MAX_FOLDER_ENTRIES),
    truncated: entries.length > MAX_FOLDER_ENTRIES,
  };
}
