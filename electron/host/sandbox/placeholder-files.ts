// Placeholders on disk, made and removed only through their folder's descriptor. A placeholder lies
// in a folder a server may write (its read-write grant), where a second server sharing the folder
// can swap a folder on the way for a symlink at any moment: a path looked up twice, once to check and
// once to act, would make or remove a file wherever that symlink leads (seen: the person's own
// .npmrc, .mcp.json and .gitmodules in an ungranted project, deleted). So the folder is opened once,
// without following a symlink at its end, checked to be at its own path (the kernel's name for what
// was opened) and, at removal, to be the very folder the placeholder was made in; the placeholder is
// then made or removed by its one name inside that open folder (/proc/self/fd/N/NAME: the folder is
// never looked up again, and the last component is never followed).
import fs from 'node:fs';
import path from 'node:path';

/** O_PATH (Linux): a descriptor that names a folder without opening it for reading. */
const O_PATH = 0o10000000;

/** A placeholder made on the host for a missing protected name, and who it (and its folder) was when made. */
export interface Placeholder {
  path: string;
  dev: number;
  ino: number;
  /** Its change time when made: anything written to it since, or a new file at its inode number, is the person's. */
  ctimeNs: bigint;
  /** The folder it was made in (absent in journals of earlier versions: the folder is then checked by its path alone). */
  parentDev?: number | undefined;
  parentIno?: number | undefined;
}

/** The folder at `dir` itself, opened (O_PATH) without following a symlink anywhere on its way; undefined if that is not what is there. */
function openFolder(dir: string): number | undefined {
  let fd: number;
  try {
    fd = fs.openSync(dir, O_PATH | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    // O_NOFOLLOW guards the last component only: the kernel's own name for what was opened shows a symlink above.
    if (fs.readlinkSync(`/proc/self/fd/${fd}`) === dir) return fd;
  } catch {
    // Unreadable: not trusted.
  }
  fs.closeSync(fd);
  return undefined;
}

/** Makes an empty folder (0700) or file (0600) named `name` in `dir`; undefined where it cannot be made there. */
export function makePlaceholder(dir: string, name: string, folder: boolean): Placeholder | undefined {
  const fd = openFolder(dir);
  if (fd === undefined) return undefined;
  try {
    const at = `/proc/self/fd/${fd}/${name}`;
    // Private modes: a placeholder .gnupg or .ssh must not make ssh or gpg complain of its permissions.
    if (folder) fs.mkdirSync(at, { mode: 0o700 });
    else fs.closeSync(fs.openSync(at, 'wx', 0o600));
    const made = fs.lstatSync(at, { bigint: true });
    const parent = fs.fstatSync(fd);
    return { path: path.join(dir, name), dev: Number(made.dev), ino: Number(made.ino), ctimeNs: made.ctimeNs, parentDev: parent.dev, parentIno: parent.ino };
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether the placeholder is still there, exactly as it was made (not written to, not replaced). */
export function unchanged(placeholder: Placeholder): boolean {
  return withPlaceholder(placeholder, () => undefined) === 'unchanged';
}

/**
 * Removes the placeholder if it is still the very empty folder or file that was made, in the very
 * folder it was made in; anything else (the person wrote into it, a swap moved it) stays.
 */
export function removePlaceholder(placeholder: Placeholder): void {
  withPlaceholder(placeholder, (at, stat) => {
    if (stat.isDirectory()) fs.rmdirSync(at);
    else if (stat.isFile() && stat.size === 0n) fs.unlinkSync(at);
  });
}

function withPlaceholder(placeholder: Placeholder, act: (at: string, stat: fs.BigIntStats) => void): 'unchanged' | 'changed' {
  const fd = openFolder(path.dirname(placeholder.path));
  if (fd === undefined) return 'changed';
  try {
    const folder = fs.fstatSync(fd);
    if (placeholder.parentDev !== undefined && (folder.dev !== placeholder.parentDev || folder.ino !== placeholder.parentIno)) return 'changed';
    const at = `/proc/self/fd/${fd}/${path.basename(placeholder.path)}`;
    const stat = fs.lstatSync(at, { bigint: true });
    if (Number(stat.dev) !== placeholder.dev || Number(stat.ino) !== placeholder.ino || stat.ctimeNs !== placeholder.ctimeNs) return 'changed';
    act(at, stat);
    return 'unchanged';
  } catch {
    // Gone already, or no longer empty (rmdir refuses): the person's now.
    return 'changed';
  } finally {
    fs.closeSync(fd);
  }
}
