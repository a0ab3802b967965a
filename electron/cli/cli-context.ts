// What every command runs with: where to write, where it was typed, and the registry to open. Tests
// build one around string buffers; the installed command uses the process's own.
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { resolveConfigDir } from '../host/registry/config-dir.js';
import { withRegistrySession, type RegistrySession } from './registry-session.js';
import type { PathContext } from '../host/registry/root-input.js';

export interface CliIo {
  out: Writable;
  err: Writable;
  stdin: Readable & { isTTY?: boolean };
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

export class CliContext {
  /** Raised by a command that did part of its work (some roots added, some not). */
  exitCode = 0;
  /** The global --config-dir, set once the command line is parsed. */
  configDirFlag: string | undefined;

  constructor(readonly io: CliIo) {}

  get pathContext(): PathContext {
    return { cwd: this.io.cwd, home: this.io.home };
  }

  /** A path typed on the command line: relative to where it was typed, `~` to home. */
  resolvePath(value: string): string {
    if (value === '~' || value.startsWith('~/')) return path.join(this.io.home, value.slice(1));
    return path.resolve(this.io.cwd, value);
  }

  configDir(): string {
    const flag = this.configDirFlag === undefined ? undefined : this.resolvePath(this.configDirFlag);
    return resolveConfigDir(flag, this.io.env);
  }

  session<T>(use: (session: RegistrySession) => Promise<T>): Promise<T> {
    return withRegistrySession(this.configDir(), use);
  }

  print(text: string): void {
    if (text) this.io.out.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  warn(text: string): void {
    this.io.err.write(text.endsWith('\n') ? text : `${text}\n`);
  }
}

export function processIo(): CliIo {
  quietOnClosedPipe();
  return { out: process.stdout, err: process.stderr, stdin: process.stdin, cwd: process.cwd(), home: os.homedir(), env: process.env };
}

let pipeGuarded = false;

/**
 * `mcp-roots status | head -1`: once the reader has gone, every further write fails with EPIPE.
 * That is the reader's choice, not an error of ours: stop quietly, as `ls | head` does, instead
 * of a Node stack trace. (The proxy's host closing its end means the same: nobody is listening.)
 */
function quietOnClosedPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
