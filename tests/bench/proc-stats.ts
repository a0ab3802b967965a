// What another process costs, read from /proc (Linux only): CPU time of every thread to the
// nanosecond (schedstat; /proc/<pid>/stat counts in 10 ms ticks, too coarse for a 2 ms budget), and
// the inotify watches it holds (fdinfo lists one `inotify wd:` line per watch).
import fs from 'node:fs';

/** CPU time of the process's live threads, in ms. A thread that exited takes its time with it. */
export function cpuMs(pid: number): number {
  let ns = 0;
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return Number.NaN;
  }
  for (const task of tasks) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1e6;
}

/** utime + stime from /proc/<pid>/stat, in ms (every thread, exited ones included; 10 ms ticks). */
export function statCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU of the process's children that ended and were waited for (cutime + cstime), in ms (10 ms ticks). */
export function reapedCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** Inotify watches held by the process, over all its inotify instances. */
export function inotifyWatches(pid: number): number {
  let count = 0;
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fdinfo`);
  } catch {
    return Number.NaN;
  }
  for (const fd of fds) {
    try {
      const info = fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8');
      for (const line of info.split('\n')) if (line.startsWith('inotify wd:')) count++;
    } catch {
      // Closed meanwhile.
    }
  }
  return count;
}

/** The machine's load average (1 min) and runnable count, for the record. */
export function loadAverage(): string {
  try {
    const [one, five, , running] = fs.readFileSync('/proc/loadavg', 'utf8').split(' ');
    return `load ${one} (5 min ${five}), runnable ${running}`;
  } catch {
    return 'load unknown';
  }
}
