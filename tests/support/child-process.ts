// A child process whose output a test can wait on (a server printing its URL), and stop for sure.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import { waitFor } from './wait-for.js';

export interface RunningChild {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout, waiting as long as `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends `signal` and resolves with the exit code (or the signal) once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals>;
  exited: Promise<number | NodeJS.Signals>;
}

const running = new Set<RunningChild>();

export function startChild(command: string, args: string[], options: SpawnOptions = {}): RunningChild {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 0));
    child.on('error', () => resolve(-1));
  });
  const handle: RunningChild = {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput: (pattern, timeoutMs = 30_000) =>
      waitFor(
        () => {
          if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}; stdout: ${out}; stderr: ${err}`);
          return pattern.exec(out);
        },
        { timeoutMs, what: `${pattern} in the output of ${command} ${args.join(' ')}` },
      ),
    async stop(signal = 'SIGTERM') {
      running.delete(handle);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.add(handle);
  return handle;
}

/** For afterEach: every child a test started and left running is stopped. */
export async function stopChildren(): Promise<void> {
  await Promise.all([...running].map((handle) => handle.stop('SIGKILL')));
}

/**
 * Whether a process runs: a zombie does not (it has ended; only its parent's wait is missing, and a
 * process whose parent was killed goes to PID 1, which does not reap in every container).
 */
export function isRunning(pid: number | string): boolean {
  try {
    return /^State:\s+(\S)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] !== 'Z';
  } catch {
    return false;
  }
}

/** Running processes whose command line names `text` (a data folder: the helper, bwrap, the server's sandbox), as "pid command". */
export function processesNaming(text: string): string[] {
  return fs.readdirSync('/proc').flatMap((pid) => {
    if (!/^\d+$/.test(pid) || !isRunning(pid)) return [];
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return cmdline.includes(text) ? [`${pid} ${cmdline.split('\0').slice(0, 3).join(' ')}`] : [];
    } catch {
      return [];
    }
  });
}

/** Every process below `pid` now (children, theirs, …), by /proc's children lists. */
export function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`/proc/${next}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = fs.readFileSync(`/proc/${next}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
        found.push(...children);
        queue.push(...children);
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return found;
}
