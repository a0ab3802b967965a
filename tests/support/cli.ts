// Runs the real installed command, `node bin/mcp-roots.js`, in a child process, as a person or a
// script would. bin/ runs the compiled CLI in dist/, and its proxy from the bundle in
// dist/proxy-bundle/: both are built first (what `npm run build:node` does) when any source is newer
// than its output (once per test run, under a lock shared by the test workers).
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from './wait-for.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const CLI_BIN = path.join(repoRoot, 'bin', 'mcp-roots.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
}

/** `mcp-roots ARGS…`; never rejects: the exit code is part of the result. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  await ensureBuilt();
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI_BIN, ...args], { cwd: options.cwd ?? repoRoot, env: options.env ?? process.env, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(options.input ?? '');
  });
}

let built: Promise<void> | undefined;

/** Compiles shared/ and electron/ into dist/ when an output is missing or older than its source. */
export function ensureBuilt(): Promise<void> {
  built ??= (async () => {
    if (isFresh()) return;
    const lock = path.join(os.tmpdir(), `mcp-roots-build-${Buffer.from(repoRoot).toString('base64url').slice(-40)}.lock`);
    await waitFor(() => takeLock(lock), { timeoutMs: 600_000, intervalMs: 250, what: `the build lock ${lock}` });
    try {
      if (!isFresh()) {
        execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: repoRoot, stdio: 'inherit' });
        execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.proxy.config.ts', '--logLevel', 'warn'], { cwd: repoRoot, stdio: 'inherit' });
      }
    } finally {
      fs.rmSync(lock, { force: true });
    }
  })();
  return built;
}

function isFresh(): boolean {
  // The proxy's bundle holds code from both folders: it must be newer than every source.
  const bundled = mtimeOf(path.join(repoRoot, 'dist/proxy-bundle/run-proxy.cjs'));
  for (const folder of ['shared', 'electron']) {
    for (const source of sources(path.join(repoRoot, folder))) {
      const output = path.join(repoRoot, 'dist', path.relative(repoRoot, source)).replace(/\.ts$/, '.js');
      const written = mtimeOf(source);
      if (mtimeOf(output) < written || bundled < written) return false;
    }
  }
  return true;
}

/** -Infinity for a file that is not there. */
function mtimeOf(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -Infinity;
  }
}

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** A lock file holding its owner's pid; one left by a process that died is taken over. */
function takeLock(lock: string): boolean {
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    const owner = Number(fs.readFileSync(lock, 'utf8'));
    try {
      if (owner > 0) process.kill(owner, 0);
      return false;
    } catch {
      fs.rmSync(lock, { force: true });
      return false;
    }
  }
}
