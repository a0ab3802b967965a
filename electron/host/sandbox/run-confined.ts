// Runs a command confined once, to its end: a package's build step (package-launch.ts), never a
// server. The same sandbox a server gets (confine-stdio.ts makes it), spawned with its descriptors
// and its private network's handshake, its output kept whole in a log file for the person.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { ConfinedStdio } from './confine-stdio.js';

export interface ConfinedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines it wrote (stdout and stderr together), for a failure's words. */
  tail: string;
}

/** How long a build step may take before it is stopped. */
const RUN_TIMEOUT_MS = 600_000;

export async function runConfinedOnce(confined: ConfinedStdio, log: string): Promise<ConfinedRun> {
  const opened = confined.openDescriptors();
  const pipes = Array.from({ length: opened.pipes ?? 0 }, () => 'pipe' as const);
  const out = fs.openSync(log, 'a', 0o600);
  let stop: void | (() => void) = undefined;
  try {
    const child = spawn(confined.config.command, confined.config.args, {
      env: confined.config.env,
      cwd: confined.config.cwd,
      stdio: ['ignore', out, out, ...opened.fds, ...pipes],
    });
    const first = 3 + opened.fds.length;
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    opened.close();
    const streams = child.stdio.slice(first, first + pipes.length) as (Readable | Writable)[];
    for (const stream of streams) stream.on('error', () => undefined);
    try {
      stop = await opened.whenSpawned?.(streams, child.pid);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    const result = await ended.finally(() => clearTimeout(timer));
    return { ...result, tail: tailOf(log) };
  } finally {
    opened.close();
    fs.closeSync(out);
    if (typeof stop === 'function') stop();
    await confined.release();
  }
}

function tailOf(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' ').slice(0, 500);
  } catch {
    return '';
  }
}
