// Per-server limits, so that a hostile or runaway server cannot exhaust the machine: how many tasks
// it may run, how much memory it may take, how large its /tmp (and TMPDIR in it) may grow, how many
// files each process may hold open. The person sets each per server (shared/server-limits.ts).
// Applied with prlimit (util-linux, present wherever bwrap is) in front of bwrap, whose processes
// and the server inherit them; /tmp inside is a tmpfs capped by bwrap's --size; where this process
// may make a cgroup (server-cgroup.ts: root on cgroup v1, a delegated v2 subtree), the server also
// runs in one of its own with pids.max and a memory cap.
//
// What each limit is worth, and where it is not enforced:
// - tasks: with a cgroup, pids.max counts exactly the server's tasks, root's too. Without one,
//   RLIMIT_NPROC, which counts every task of the user, not of the sandbox: it is set to the
//   user's task count now plus the setting, so a fork bomb inside stops after about that many,
//   and the person's own programs (without the limit) are not affected. The kernel never applies
//   it to root: an app run as root without a cgroup does NOT limit tasks, and the self-check says so;
// - memory: RLIMIT_DATA per process (V8 and Chromium reserve address space without writing it,
//   which this limit does not count); with a cgroup, also the whole server's memory;
// - /tmp and TMPDIR: one tmpfs of the set size (ENOSPC past it), gone when the server exits;
// - files: RLIMIT_NOFILE per process;
// - the private HOME on disk is NOT capped: a per-folder quota needs privileges (project quotas,
//   a loop-mounted image) that an app run as a normal user does not have.
import fs from 'node:fs';
import { effectiveLimits, type ServerLimits } from '../../../shared/server-limits.js';
import { findOnPath } from './sandbox-probe.js';
import { cgroupPrefix, serverCgroup, type ServerCgroup } from './server-cgroup.js';

export interface ResourceLimits {
  /** Absolute path of prlimit; without it no rlimit is applied. */
  prlimit?: string | undefined;
  /** The server's task limit as set (pids.max where a cgroup enforces it). */
  taskLimit: number;
  /** RLIMIT_NPROC for the sandbox; undefined where it would not be enforced (root) or a cgroup binds instead. */
  tasks?: number | undefined;
  /** Whose tasks RLIMIT_NPROC counts. */
  uid?: number | undefined;
  /** RLIMIT_DATA per process, in bytes (and the cgroup's memory cap, where there is one). */
  dataBytes: number;
  /** The size of the /tmp tmpfs inside (TMPDIR is in it), in bytes. */
  tmpBytes: number;
  /** RLIMIT_NOFILE per process. */
  files: number;
  /** The server's own cgroup, where one could be made. */
  cgroup?: ServerCgroup | undefined;
}

/**
 * How many tasks (threads) a user runs now, from /proc/<pid>/status (real uid, Threads): the count
 * RLIMIT_NPROC compares with. ~300 processes read in a few ms; undefined where /proc cannot be read.
 */
export function userTasks(uid: number, proc = '/proc'): number | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let total = 0;
  for (const entry of entries) {
    let status: string;
    try {
      status = fs.readFileSync(`${proc}/${entry}/status`, 'utf8');
    } catch {
      continue;
    }
    if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) !== uid) continue;
    total += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
  }
  return total;
}

/** The machine's task count now: /proc/loadavg's fourth field is running/total. */
export function machineTasks(loadavg: string = readLoadavg()): number {
  const total = Number(/\s\d+\/(\d+)\s/.exec(loadavg)?.[1]);
  return Number.isFinite(total) && total > 0 ? total : 4096;
}

function readLoadavg(): string {
  try {
    return fs.readFileSync('/proc/loadavg', 'utf8');
  } catch {
    return '';
  }
}

export interface LimitOptions {
  pathEnv?: string | undefined;
  uid?: number | undefined;
  /** The server's own settings (defaults where absent). */
  settings?: ServerLimits | undefined;
  /** Names its cgroup; without it no cgroup is made. */
  serverKey?: string | undefined;
  /** Tests: where to look for a cgroup (default: make one where this process may). */
  cgroup?: (key: string, limits: { tasks: number; memoryBytes: number }) => ServerCgroup | undefined;
}

export function resourceLimits(options: LimitOptions = {}): ResourceLimits {
  const uid = options.uid ?? process.getuid?.();
  const set = effectiveLimits(options.settings);
  const dataBytes = set.memoryMiB * 1024 ** 2;
  const cgroup = options.serverKey !== undefined ? (options.cgroup ?? serverCgroup)(options.serverKey, { tasks: set.tasks, memoryBytes: dataBytes }) : undefined;
  return {
    prlimit: findOnPath('prlimit', options.pathEnv ?? process.env.PATH) ?? findOnPath('prlimit', '/usr/bin:/bin'),
    taskLimit: set.tasks,
    // With a cgroup, pids.max binds exactly; an rlimit of the whole user's count is kept only where it is the one bound.
    // The user's own count where it can be read (the machine's, an upper bound, where not): the server gets about `tasks` more.
    tasks: uid === 0 || uid === undefined || cgroup ? undefined : (userTasks(uid) ?? machineTasks()) + set.tasks,
    uid,
    dataBytes,
    tmpBytes: set.tmpMiB * 1024 ** 2,
    files: set.files,
    cgroup,
  };
}

/** The launcher's arguments in front of bwrap: join the cgroup, then prlimit (empty without either). */
export function limitsPrefix(limits: ResourceLimits): string[] {
  return [...cgroupPrefix(limits.cgroup), ...rlimitsPrefix(limits)];
}

/**
 * prlimit's part alone (empty without prlimit). The sandbox helper goes between the cgroup and it:
 * its file view holds a descriptor per folder, which the server's open-file limit must not cap.
 */
export function rlimitsPrefix(limits: ResourceLimits): string[] {
  return limits.prlimit ? [limits.prlimit, ...(limits.tasks !== undefined ? [`--nproc=${limits.tasks}`] : []), `--data=${limits.dataBytes}`, `--nofile=${limits.files}`, '--'] : [];
}

/** What /proc/<pid>/limits says of a limit ("Max processes", "Max data size"): its soft value, or undefined for unlimited. */
export function readLimit(limitsFile: string, name: string): number | undefined {
  const line = limitsFile.split('\n').find((each) => each.startsWith(name));
  const soft = line?.slice(name.length).trim().split(/\s+/)[0];
  return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
}
