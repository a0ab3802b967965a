// One look at one root folder: is it there, a directory, readable, and still where it was?
// Synchronous on purpose: a few cached syscalls cost microseconds, far less than a trip through
// libuv's thread pool, which matters when a thousand roots are probed at once (a renamed parent, a sweep).
import fs, { constants } from 'node:fs';
import path from 'node:path';
import type { RootAccess } from '../../../shared/domain.js';

/**
 * What the caller has just seen on the way to the folder (the access monitor's watch walk looks at
 * every directory above it): all real directories, not symlinks ('folders'); or the first one that
 * is not, missing or a file; or nothing known. It spares the probe looking again: with 'folders',
 * the folder itself not being a symlink proves it still resolves to itself (no realpath, a syscall
 * per path step); a missing parent answers for a thousand roots below it at no cost.
 */
export type WayAbove = 'folders' | 'missing' | 'not-a-folder' | 'unknown';

export function probeRoot(canonicalPath: string, now = Date.now(), above: WayAbove = 'unknown'): RootAccess {
  if (above === 'missing') return deleted(now);
  if (above === 'not-a-folder') return parentNotFolder(now);
  const parentsAreFolders = above === 'folders';
  try {
    // Not found is answered without an exception: building one costs tens of µs, and a renamed
    // parent makes a thousand roots missing at once.
    const stat = parentsAreFolders ? fs.lstatSync(canonicalPath, { throwIfNoEntry: false }) : fs.statSync(canonicalPath, { throwIfNoEntry: false });
    if (!stat) return notFound(canonicalPath, now);
    if (stat.isSymbolicLink()) return probeRoot(canonicalPath, now);
    if (!stat.isDirectory()) return { state: 'not-directory', reason: 'It is a file now, not a folder.', reasonCode: 'became-file', checkedAt: now };
    fs.accessSync(canonicalPath, constants.R_OK | constants.X_OK);
    if (parentsAreFolders) return { state: 'ok', checkedAt: now };
    // A folder (or a parent) swapped for a symlink resolves elsewhere: hide it until confirmed.
    const real = fs.realpathSync.native(canonicalPath);
    if (real !== canonicalPath) {
      return { state: 'target-changed', reason: `It now leads to ${real}.`, reasonCode: 'leads-elsewhere', target: real, checkedAt: now };
    }
    return { state: 'ok', checkedAt: now };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    switch (code) {
      case 'ENOENT':
        return deleted(now);
      case 'ENOTDIR':
        return parentNotFolder(now);
      case 'EACCES':
      case 'EPERM':
        return { state: 'permission-denied', reason: 'No permission to read the folder.', reasonCode: 'no-permission', checkedAt: now };
      case 'ELOOP':
        return { state: 'error', reason: 'The path is a symlink loop.', reasonCode: 'symlink-loop', checkedAt: now };
      default:
        return { state: 'error', reason: (error as Error).message, reasonCode: 'other', checkedAt: now };
    }
  }
}

/** ENOENT or ENOTDIR (Node does not say which): the nearest ancestor that is there tells them apart. */
function notFound(canonicalPath: string, now: number): RootAccess {
  for (let at = path.dirname(canonicalPath); ; at = path.dirname(at)) {
    const stat = fs.statSync(at, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) return parentNotFolder(now);
    if (stat || path.dirname(at) === at) return deleted(now);
  }
}

function deleted(now: number): RootAccess {
  return { state: 'missing', reason: 'The folder was deleted, renamed or unmounted.', reasonCode: 'deleted', checkedAt: now };
}

function parentNotFolder(now: number): RootAccess {
  return { state: 'missing', reason: 'A parent of the folder is no longer a folder.', reasonCode: 'parent-not-folder', checkedAt: now };
}

export function sameAccess(a: RootAccess | undefined, b: RootAccess): boolean {
  return a !== undefined && a.state === b.state && a.reason === b.reason;
}
