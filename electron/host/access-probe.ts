// One look at one root folder: is it there, a directory, readable, and still where it was?
// Synchronous on purpose: three cached syscalls cost microseconds, far less than a trip through
// libuv's thread pool, which matters when a sweep covers a thousand roots every second.
import fs, { constants } from 'node:fs';
import type { RootAccess } from '../../shared/domain.js';

export function probeRoot(canonicalPath: string, now = Date.now()): RootAccess {
  try {
    const stat = fs.statSync(canonicalPath);
    if (!stat.isDirectory()) return { state: 'not-directory', reason: 'It is a file now, not a folder.', reasonCode: 'became-file', checkedAt: now };
    fs.accessSync(canonicalPath, constants.R_OK | constants.X_OK);
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
        return { state: 'missing', reason: 'The folder was deleted, renamed or unmounted.', reasonCode: 'deleted', checkedAt: now };
      case 'ENOTDIR':
        return { state: 'missing', reason: 'A parent of the folder is no longer a folder.', reasonCode: 'parent-not-folder', checkedAt: now };
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

export function sameAccess(a: RootAccess | undefined, b: RootAccess): boolean {
  return a !== undefined && a.state === b.state && a.reason === b.reason;
}
