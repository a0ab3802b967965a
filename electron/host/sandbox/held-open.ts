// What the processes of a running sandbox hold under a folder: open files, their working and root
// folders, mapped files. A lazy unmount hides a revoked folder from every new lookup, but a file
// already open (or a cwd inside it) keeps the old mount alive for that process, with its old mode:
// such a revoke is not real until the process ends, so the server is restarted instead.
// The sandbox shows every path at its host path, so what /proc names inside is the host's path.
import fs from 'node:fs';
import { confinedProcesses } from './self-check.js';
import { isWithin } from './sandbox-types.js';

export interface HeldPath {
  pid: number;
  /** The file or folder held, as the process sees it (its host path). */
  path: string;
  /** The folder it lies under. */
  folder: string;
  how: 'open' | 'cwd' | 'root' | 'mapped';
}

function link(p: string): string | undefined {
  try {
    return fs.readlinkSync(p).replace(/ \(deleted\)$/, '');
  } catch {
    return undefined;
  }
}

/** Every path one process holds, with how. */
function heldBy(pid: number): Array<{ path: string; how: HeldPath['how'] }> {
  const held: Array<{ path: string; how: HeldPath['how'] }> = [];
  for (const [file, how] of [
    ['cwd', 'cwd'],
    ['root', 'root'],
  ] as const) {
    const target = link(`/proc/${pid}/${file}`);
    if (target) held.push({ path: target, how });
  }
  let fds: string[] = [];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    // Gone meanwhile.
  }
  for (const fd of fds) {
    const target = link(`/proc/${pid}/fd/${fd}`);
    if (target?.startsWith('/')) held.push({ path: target, how: 'open' });
  }
  try {
    for (const line of fs.readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
      const at = line.indexOf('/');
      if (at > 0) held.push({ path: line.slice(at).replace(/ \(deleted\)$/, ''), how: 'mapped' });
    }
  } catch {
    // Gone meanwhile.
  }
  return held;
}

/**
 * The first thing a process of the sandbox started as `holderPid` holds under one of `folders`,
 * or undefined. The holder itself (bwrap's outer process, in the holder's mount namespace) holds
 * nothing the server sees and is not among them (confinedProcesses); root ('/') is the sandbox's
 * own and never counts.
 */
export function heldUnder(holderPid: number, folders: readonly string[]): HeldPath | undefined {
  if (folders.length === 0) return undefined;
  for (const pid of confinedProcesses(holderPid)) {
    for (const { path, how } of heldBy(pid)) {
      if (how === 'root' && path === '/') continue;
      const folder = folders.find((candidate) => isWithin(path, candidate));
      if (folder) return { pid, path, folder, how };
    }
  }
  return undefined;
}

/** The activity log's words: why a revoke restarted the server. */
export function describeHeld(held: HeldPath): string {
  const what = held.how === 'cwd' ? `its working folder ${held.path}` : held.how === 'mapped' ? `${held.path} mapped` : held.how === 'root' ? `its root ${held.path}` : `${held.path} open`;
  return `it held ${what} under ${held.folder}`;
}
