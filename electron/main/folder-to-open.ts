// Which folder "Open folder" of a changed file opens, and how, so that it never runs anything: the
// nearest folder that is there (a deleted file's folder may be gone too), never through a symlink
// at its end; a macOS bundle (a folder the Finder would launch as an app) is shown in its parent.
import fs from 'node:fs';
import path from 'node:path';

export type FolderToOpen = { how: 'open' | 'reveal'; path: string };

export function folderToOpen(target: string, platform: NodeJS.Platform = process.platform): FolderToOpen | undefined {
  let folder = path.resolve(target);
  for (;;) {
    const stat = fs.lstatSync(folder, { throwIfNoEntry: false });
    if (stat?.isDirectory()) break;
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
  if (platform === 'darwin' && fs.existsSync(path.join(folder, 'Contents', 'Info.plist'))) return { how: 'reveal', path: folder };
  return { how: 'open', path: folder };
}
