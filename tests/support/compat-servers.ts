// The popular servers of the compatibility suite, installed on demand into tests/compat-servers/
// (and its native/ folder), not by the project's `npm install`: a newcomer's first command needs
// only the npm registry and builds nothing native (mcp-sqlite's sqlite3 would fetch from github.com
// and nodejs.org, and fail where only the registry is reachable; #27).
//
// Each folder has its own package.json and lockfile; `npm ci` runs there once, when its lockfile differs
// from the one it installed, under a lock so that test files running at once install once. A
// native package that cannot be built here is not retried at every run: the failure is kept beside
// the lockfile it was for, and its cases are skipped with that reason. Where this machine has
// Node's headers (Debian's nodejs-dev: /usr/include/node), node-gyp is pointed at them, so a
// native build needs no download either.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const repoRoot = path.resolve(import.meta.dirname, '../..');
export const COMPAT_DIR = path.join(repoRoot, 'tests', 'compat-servers');
export const COMPAT_NATIVE_DIR = path.join(COMPAT_DIR, 'native');

export type CompatInstall = { ready: true; dir: string } | { ready: false; dir: string; reason: string };

const NODE_HEADERS = '/usr/include/node/node.h';
const FAILED = '.install-failed';

/** What this folder's lockfile and this Node make: an install is for exactly these. */
function installKey(dir: string): string {
  const lock = createHash('sha256').update(fs.readFileSync(path.join(dir, 'package-lock.json'))).digest('hex');
  return `${lock}:${process.version}`;
}

function installedKey(dir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dir, 'node_modules', '.compat-installed'), 'utf8');
  } catch {
    return undefined;
  }
}

function keptFailure(dir: string): string | undefined {
  try {
    const [key, ...reason] = fs.readFileSync(path.join(dir, FAILED), 'utf8').split('\n');
    return key === installKey(dir) ? reason.join('\n') : undefined;
  } catch {
    return undefined;
  }
}

/** Waits for a lock made with mkdir (atomic); a holder that died is taken over after its pid is gone. */
async function withLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const lock = path.join(dir, '.install-lock');
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      let holder = NaN;
      try {
        holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
      } catch {
        // Being made or removed right now.
      }
      let alive = true;
      if (Number.isInteger(holder)) {
        try {
          process.kill(holder, 0);
        } catch {
          alive = false;
        }
      }
      if (!alive) fs.rmSync(lock, { recursive: true, force: true });
      // Another test file installs: its install takes tens of seconds, so a short wait between looks.
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function install(dir: string, native: boolean): Promise<CompatInstall> {
  return withLock(dir, async () => {
    const key = installKey(dir);
    if (installedKey(dir) === key) return { ready: true, dir };
    const failed = keptFailure(dir);
    if (failed !== undefined) return { ready: false, dir, reason: failed };
    const env = { ...process.env };
    if (native && fs.existsSync(NODE_HEADERS)) env.npm_config_nodedir = '/usr';
    try {
      await promisify(execFile)('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
      fs.writeFileSync(path.join(dir, 'node_modules', '.compat-installed'), key);
      fs.rmSync(path.join(dir, FAILED), { force: true });
      return { ready: true, dir };
    } catch (error) {
      const said = `${(error as { stderr?: string }).stderr ?? ''}`.split('\n').filter((line) => /error/i.test(line)).slice(-3).join(' / ');
      const reason = `npm ci in ${path.relative(repoRoot, dir)} failed${said ? `: ${said}` : ` (${(error as Error).message.split('\n')[0]})`}`;
      const hint = native && !fs.existsSync(NODE_HEADERS) ? "; with Node's headers in /usr/include/node (Debian: libnode-dev, or NodeSource's nodejs) it builds without a download" : '';
      if (native) fs.writeFileSync(path.join(dir, FAILED), `${key}\n${reason}${hint}`);
      if (native) return { ready: false, dir, reason: `${reason}${hint}` };
      return { ready: false, dir, reason };
    }
  });
}

/** The suite's pure-JavaScript servers, installed (a failure here is the test's, not a skip). */
export async function compatServers(): Promise<string> {
  const result = await install(COMPAT_DIR, false);
  if (!result.ready) throw new Error(result.reason);
  return result.dir;
}

/** The servers with a native build: installed, or why not on this machine. */
export function compatNativeServers(): Promise<CompatInstall> {
  return install(COMPAT_NATIVE_DIR, true);
}
