// Binds by descriptor, not by path: every folder or file that bwrap binds from a place someone else
// can write (a grant, a program inside a grant, a protected path) is opened here, just before the
// spawn, without following symlinks, checked to be the very thing the plan saw, and handed to bwrap
// as an open descriptor (`--bind-fd` / `--ro-bind-fd`). bwrap then binds what the descriptor holds;
// nothing is resolved by path again, so swapping a granted folder for a symlink to /etc between the
// plan and the mount (a race another server sharing the project can run in a loop) gets a refused
// start, not the host's /etc.
//
// bwrap closes each descriptor once it has bound it: the server never inherits them (an O_PATH
// descriptor to a granted folder would otherwise let it climb out with openat("..")).
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { SandboxSetupError } from './sandbox-types.js';

/** Not in fs.constants: open a path only to name it (no read permission needed, no side effects). */
const O_PATH = 0o10000000;

/** Who a path was when the plan was made: device and inode, and whether it was a folder. */
export interface PathIdentity {
  dev: number;
  ino: number;
  directory: boolean;
}

/** One thing bwrap binds from a descriptor: its path and the identity it must still have. */
export interface DescribedMount {
  path: string;
  identity: PathIdentity;
}

/** The identity of a path itself (never through a symlink), or undefined when it is not there or is a symlink. */
export function identityOf(p: string): PathIdentity | undefined {
  try {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink() || !(stat.isDirectory() || stat.isFile())) return undefined;
    return { dev: stat.dev, ino: stat.ino, directory: stat.isDirectory() };
  } catch {
    return undefined;
  }
}

export interface OpenedDescriptors {
  /** In plan order: bwrap's fd 3 is the first, 4 the next, … */
  fds: number[];
  /** Closes this process's copies (call once the child has been spawned, or on failure). */
  close(): void;
  /** A private network's handshake with bwrap (private-network.ts): two pipes after `fds`, and what to do once it runs. */
  pipes?: number | undefined;
  whenSpawned?: ((pipes: (Readable | Writable)[], pid: number | undefined) => Promise<void | (() => void)>) | undefined;
}

/**
 * Opens every mount source for the spawn. Throws SandboxSetupError('folder-changed') when one is no
 * longer what the plan saw (gone, now a symlink, another inode, or reached through a symlink above it).
 */
export function openMountDescriptors(mounts: readonly DescribedMount[], extra: readonly number[] = []): OpenedDescriptors {
  const fds: number[] = [];
  const close = () => {
    for (const fd of fds.splice(0)) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed.
      }
    }
  };
  try {
    for (const mount of mounts) fds.push(openChecked(mount));
  } catch (error) {
    close();
    throw error;
  }
  fds.push(...extra);
  return { fds, close };
}

function changed(p: string, how: string): SandboxSetupError {
  return new SandboxSetupError('folder-changed', `${p} ${how} since its sandbox was planned, so it was not mounted and the server was not started.`);
}

function openChecked({ path: p, identity }: DescribedMount): number {
  let fd: number;
  try {
    fd = fs.openSync(p, O_PATH | fs.constants.O_NOFOLLOW | (identity.directory ? fs.constants.O_DIRECTORY : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw changed(p, code === 'ENOENT' ? 'is gone' : code === 'ENOTDIR' || code === 'ELOOP' ? 'became a symlink or a file' : `could not be opened (${code})`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.dev !== identity.dev || stat.ino !== identity.ino || stat.isDirectory() !== identity.directory) throw changed(p, 'was replaced');
    // O_NOFOLLOW guards the last component only: the kernel's own name for what was opened shows
    // whether a symlink above it led elsewhere.
    const opened = fs.readlinkSync(`/proc/self/fd/${fd}`);
    if (opened !== p) throw changed(p, `was reached through a symlink (it opened ${opened})`);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}
