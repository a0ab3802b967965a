// Per-server limits, so that a hostile or runaway server cannot exhaust the machine: how many tasks
// it may make, how much data memory each of its processes may take, how large its /tmp may grow.
// Applied with prlimit (util-linux, present wherever bwrap is) in front of bwrap, whose processes
// and the server inherit them; /tmp inside is a tmpfs capped by bwrap's --size.
//
// Why rlimits and not a cgroup: a cgroup a normal user may write needs systemd's delegation, and
// `systemd-run --user --scope` costs a D-Bus round trip per start (tens of ms, against a budget of
// 1.15x a plain start). What each limit is worth, and where it is not enforced:
// - tasks (RLIMIT_NPROC) count every task of the user, not of the sandbox: the limit is set to the
//   machine's task count now plus a margin, so a fork bomb inside stops after the margin, and the
//   person's own programs (without the limit) are not affected. The kernel never applies it to
//   root: when the app runs as root, tasks are NOT limited, and the self-check says so;
// - data (RLIMIT_DATA) is per process: it stops one process from taking all memory (V8 and
//   Chromium reserve address space without writing it, which this limit does not count);
// - the private HOME and TMPDIR on disk are not capped (no per-folder quota without root).
import fs from 'node:fs';
import { findOnPath } from './sandbox-probe.js';

export interface ResourceLimits {
  /** Absolute path of prlimit; without it no rlimit is applied. */
  prlimit?: string | undefined;
  /** RLIMIT_NPROC for the sandbox; undefined where it would not be enforced (root). */
  tasks?: number | undefined;
  /** RLIMIT_DATA per process, in bytes. */
  dataBytes: number;
  /** The size of the /tmp tmpfs inside, in bytes. */
  tmpBytes: number;
}

/** How many more tasks than the machine runs now a sandbox may start. */
export const TASK_MARGIN = 1024;
export const DATA_BYTES = 8 * 1024 ** 3;
export const TMP_BYTES = 512 * 1024 ** 2;

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

export function resourceLimits(options: { pathEnv?: string | undefined; uid?: number | undefined } = {}): ResourceLimits {
  const uid = options.uid ?? process.getuid?.();
  return {
    prlimit: findOnPath('prlimit', options.pathEnv ?? process.env.PATH) ?? findOnPath('prlimit', '/usr/bin:/bin'),
    tasks: uid === 0 ? undefined : machineTasks() + TASK_MARGIN,
    dataBytes: DATA_BYTES,
    tmpBytes: TMP_BYTES,
  };
}

/** prlimit's arguments in front of the command (empty without prlimit). */
export function prlimitPrefix(limits: ResourceLimits): string[] {
  if (!limits.prlimit) return [];
  return [limits.prlimit, ...(limits.tasks !== undefined ? [`--nproc=${limits.tasks}`] : []), `--data=${limits.dataBytes}`, '--'];
}

/** What /proc/<pid>/limits says of a limit ("Max processes", "Max data size"): its soft value, or undefined for unlimited. */
export function readLimit(limitsFile: string, name: string): number | undefined {
  const line = limitsFile.split('\n').find((each) => each.startsWith(name));
  const soft = line?.slice(name.length).trim().split(/\s+/)[0];
  return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
}
