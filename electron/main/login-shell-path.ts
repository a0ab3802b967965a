// An app started from the Dock, Finder or a desktop menu gets the session's bare PATH
// (/usr/bin:/bin…), not the one the person's shell builds (Homebrew, nvm, volta, ~/.local/bin):
// `npx` and `node` servers then fail with "command not found" although they work in a terminal.
// As VS Code does (src/vs/platform/shell/node/shellEnv.ts), ask the login shell once at start,
// bounded by a timeout, and put its PATH first.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';

export interface ShellPath {
  /** Where the PATH the app uses came from. */
  source: 'login-shell' | 'inherited';
  /** The shell asked, when one was. */
  shell?: string | undefined;
  /** Why the login shell's PATH is not used, when it was asked and failed. */
  error?: string | undefined;
  path: string;
}

export interface ShellPathOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /**
   * Whether to ask at all. Default: unless stdout is a terminal (then the app was started from a
   * shell and has its PATH already).
   */
  ask?: boolean;
  timeoutMs?: number;
  spawn?: (command: string, args: string[], options: SpawnOptions) => ChildProcess;
}

export const SHELL_PATH_TIMEOUT_MS = 5000;
/** Set while the shell runs, so a slow rc file can skip work (VS Code sets VSCODE_RESOLVING_ENVIRONMENT). */
export const RESOLVING_ENV = 'MCP_ROOTS_RESOLVING_ENVIRONMENT';
const MARK_ENV = 'MCP_ROOTS_PATH_MARK';

export async function resolveShellPath(options: ShellPathOptions = {}): Promise<ShellPath> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const inherited = env.PATH ?? '';
  // Windows gives GUI apps the user's full PATH from the registry; a terminal already has it.
  if (platform === 'win32' || !(options.ask ?? process.stdout.isTTY !== true)) return { source: 'inherited', path: inherited };
  const shell = env.SHELL || (platform === 'darwin' ? '/bin/zsh' : '/bin/sh');
  try {
    const shellPath = await askShell(shell, env, options);
    return { source: 'login-shell', shell, path: mergePaths(shellPath, inherited) };
  } catch (error) {
    return { source: 'inherited', shell, error: (error as Error).message, path: inherited };
  }
}

/** The shell's entries first, then those only the app had; each once, empty ones dropped. */
export function mergePaths(preferred: string, current: string, delimiter: string = path.delimiter): string {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const entry of [...preferred.split(delimiter), ...current.split(delimiter)]) {
    if (entry === '' || seen.has(entry)) continue;
    seen.add(entry);
    merged.push(entry);
  }
  return merged.join(delimiter);
}

/** An interactive login shell reads every rc file people put PATH in; noise they print is cut off by marks. */
export function shellArguments(shell: string, command: string): string[] {
  const name = path.basename(shell);
  return name === 'csh' || name === 'tcsh' ? ['-ic', command] : ['-i', '-l', '-c', command];
}

function askShell(shell: string, env: NodeJS.ProcessEnv, options: ShellPathOptions): Promise<string> {
  const mark = randomUUID().replaceAll('-', '');
  const command = `printf '%s' "$${MARK_ENV}"; printenv PATH; printf '%s' "$${MARK_ENV}"`;
  const run = options.spawn ?? spawn;
  const timeoutMs = options.timeoutMs ?? SHELL_PATH_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = run(shell, shellArguments(shell, command), {
      // Its own session: an interactive shell without a terminal must not stop on SIGTTOU or read ours.
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...env, [MARK_ENV]: mark, [RESOLVING_ENV]: '1' },
    });
    let output = '';
    const timer = setTimeout(() => {
      kill(child);
      reject(new Error(`${shell} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      if (output.length > 1_000_000) kill(child);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const parts = output.split(mark);
      const found = parts.length >= 3 ? parts[1]!.trim() : '';
      if (found) resolve(found);
      else reject(new Error(`${shell} printed no PATH (exit code ${code ?? 'none'})`));
    });
  });
}

function kill(child: ChildProcess): void {
  try {
    // The whole group: rc files may have started helpers (ssh-agent, direnv).
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
