// A cgroup of its own for one confined server, where this process may make one: the only limit on
// tasks that binds root (the kernel never applies RLIMIT_NPROC to uid 0), and a cap on the whole
// server's memory rather than each process's.
//
// Where: cgroup v1's pids and memory hierarchies, below this process's own cgroup in each, when
// their folders are writable (an app run as root; not a normal user, whose v1 folders are root's);
// cgroup v2, below this process's own cgroup when that folder is writable and already hands the
// pids controller down (a delegated subtree, as systemd's Delegate=yes gives). A v2 cgroup with
// processes of its own cannot hand controllers down ("no internal processes"), so none is made there.
// Not used: `systemd-run --user --scope -p TasksMax=`, which needs a user manager on D-Bus (none on
// this machine, nor in most containers) and costs a round trip per start.
//
// The server joins it before anything of it runs: a shell writes its own pid into each cgroup and
// then execs prlimit and bwrap (cgroupPrefix), so every process inside is born in it.
import fs from 'node:fs';
import path from 'node:path';

export interface ServerCgroup {
  /** The pids cgroup folder: its pids.max holds the task limit. */
  pids: string;
  /** The memory cgroup folder, where one could be made: the whole server's memory cap. */
  memory?: string | undefined;
  version: 1 | 2;
}

const ROOT = '/sys/fs/cgroup';

/** This process's cgroup path in the hierarchy that has `controller` (v1), or in the unified one ('' for v2). */
function ownCgroup(controller: string, text: string): string | undefined {
  for (const line of text.split('\n')) {
    const [, controllers, where] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (controllers === undefined || where === undefined) continue;
    if (controller === '' ? controllers === '' : controllers.split(',').includes(controller)) return where;
  }
  return undefined;
}

function writeFile(file: string, value: string): boolean {
  try {
    fs.writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
}

/** A folder `name` below `parent`, made if missing; undefined when this process may not. */
function childFolder(parent: string, name: string): string | undefined {
  const dir = path.join(parent, name);
  try {
    fs.mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  return dir;
}

export interface CgroupLimits {
  tasks: number;
  memoryBytes: number;
}

/**
 * The server's own cgroup with its limits written, or undefined where none can be made here.
 * `selfCgroup` is /proc/self/cgroup's text (tests pass another).
 */
/** Starts given a cgroup by this process: the last part of each one's name. */
let starts = 0;

export function serverCgroup(serverKey: string, limits: CgroupLimits, selfCgroup: string = readSelfCgroup()): ServerCgroup | undefined {
  // One per start, not per server: a server that restarts at once (a crash, a grant) must not find its
  // new cgroup removed by the previous start's cleanup, which runs once that start's processes are gone.
  const name = `mcp-roots-${serverKey.replace(/[^a-zA-Z0-9._-]/g, '_')}-${process.pid}-${++starts}`;
  const v1Pids = ownCgroup('pids', selfCgroup);
  if (v1Pids !== undefined && fs.existsSync(path.join(ROOT, 'pids', 'cgroup.procs'))) {
    const pids = childFolder(path.join(ROOT, 'pids', v1Pids), name);
    if (!pids || !writeFile(path.join(pids, 'pids.max'), String(limits.tasks))) return undefined;
    const v1Memory = ownCgroup('memory', selfCgroup);
    let memory = v1Memory !== undefined ? childFolder(path.join(ROOT, 'memory', v1Memory), name) : undefined;
    if (memory && !writeFile(path.join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes))) memory = undefined;
    return { pids, memory, version: 1 };
  }
  const unified = ownCgroup('', selfCgroup);
  if (unified === undefined || !fs.existsSync(path.join(ROOT, 'cgroup.controllers'))) return undefined;
  const own = path.join(ROOT, unified);
  let handedDown: string;
  try {
    handedDown = fs.readFileSync(path.join(own, 'cgroup.subtree_control'), 'utf8');
  } catch {
    return undefined;
  }
  if (!handedDown.split(/\s+/).includes('pids')) return undefined;
  const dir = childFolder(own, name);
  if (!dir || !writeFile(path.join(dir, 'pids.max'), String(limits.tasks))) return undefined;
  const memory = handedDown.split(/\s+/).includes('memory') && writeFile(path.join(dir, 'memory.max'), String(limits.memoryBytes)) ? dir : undefined;
  return { pids: dir, memory, version: 2 };
}

function readSelfCgroup(): string {
  try {
    return fs.readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return '';
  }
}

/** The files a starting server writes its pid into: each cgroup once. */
export function cgroupProcsFiles(cgroup: ServerCgroup): string[] {
  const dirs = [...new Set([cgroup.pids, ...(cgroup.memory ? [cgroup.memory] : [])])];
  return dirs.map((dir) => path.join(dir, 'cgroup.procs'));
}

/** Joins each cgroup, then execs the rest: `sh -c SCRIPT name procs… -- command…`. Exit 125 when a cgroup refuses it (the start fails, never unlimited). */
const JOIN_SCRIPT = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';

export function cgroupPrefix(cgroup: ServerCgroup | undefined): string[] {
  if (!cgroup) return [];
  return ['/bin/sh', '-c', JOIN_SCRIPT, 'mcp-roots-cgroup', ...cgroupProcsFiles(cgroup), '--'];
}

/** The pids cgroup a running process is in, as a folder under /sys/fs/cgroup (v1 pids, else v2). */
export function pidsCgroupOf(pid: number, version: 1 | 2): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8');
  } catch {
    return undefined;
  }
  const where = ownCgroup(version === 1 ? 'pids' : '', text);
  return where === undefined ? undefined : path.join(ROOT, ...(version === 1 ? ['pids'] : []), where);
}

/** How many times a fork was refused by pids.max (v1 and v2 both keep "max N" in pids.events). */
export function refusedForks(cgroup: ServerCgroup): number {
  try {
    return Number(/^max (\d+)/m.exec(fs.readFileSync(path.join(cgroup.pids, 'pids.events'), 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** How many times the memory cap was hit (v1 memory.failcnt; v2 memory.events "max"). */
export function memoryCapHits(cgroup: ServerCgroup): number {
  if (!cgroup.memory) return 0;
  try {
    if (cgroup.version === 1) return Number(fs.readFileSync(path.join(cgroup.memory, 'memory.failcnt'), 'utf8').trim());
    return Number(/^max (\d+)/m.exec(fs.readFileSync(path.join(cgroup.memory, 'memory.events'), 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Removes the server's cgroup folders once its processes are gone (the kernel refuses while any live: then it stays, to be reused). */
export function removeCgroup(cgroup: ServerCgroup | undefined): void {
  if (!cgroup) return;
  for (const dir of new Set([cgroup.pids, ...(cgroup.memory ? [cgroup.memory] : [])])) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // Still in use (EBUSY), or gone.
    }
  }
}
