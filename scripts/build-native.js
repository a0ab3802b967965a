// Builds the sandbox helper (native/sandbox-helper/*.c) into dist/native/mcp-roots-sandbox with the
// machine's C compiler: one small program with no library beyond libc. Part of `npm run build:node`
// (so of `npm install`), rebuilt only when a source is newer. Linux only. Never fails an install:
// where no compiler works, it says so, and confined servers get static protection (bind mounts)
// instead of the file view; the self-check and `mcp-roots status` say which a server has.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const sourceDir = path.join(root, 'native', 'sandbox-helper');
const out = path.join(root, 'dist', 'native', 'mcp-roots-sandbox');

/** The compiler's flags: hardened (a helper with more rights than the server), warnings on. */
export const CFLAGS = ['-std=gnu11', '-O2', '-Wall', '-Wextra', '-D_FORTIFY_SOURCE=2', '-fstack-protector-strong', '-fPIE', '-pie', '-pthread'];

export function helperSources() {
  return fs.readdirSync(sourceDir).filter((name) => name.endsWith('.c') || name.endsWith('.h')).map((name) => path.join(sourceDir, name));
}

function upToDate() {
  if (!fs.existsSync(out)) return false;
  const built = fs.statSync(out).mtimeMs;
  return helperSources().every((file) => fs.statSync(file).mtimeMs <= built);
}

export function buildHelper({ quiet = false } = {}) {
  if (process.platform !== 'linux') return { built: false, why: 'the file view is Linux only' };
  if (upToDate()) return { built: true, why: 'up to date' };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const partial = `${out}.${process.pid}.tmp`;
  const cc = process.env.CC || 'cc';
  try {
    execFileSync(cc, [...CFLAGS, '-o', partial, ...helperSources().filter((file) => file.endsWith('.c'))], { stdio: quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'] });
    fs.chmodSync(partial, 0o755);
    fs.renameSync(partial, out);
    return { built: true, why: 'built' };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    return { built: false, why: `${cc} could not build it (${error.message.split('\n')[0]})` };
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = buildHelper();
  if (!result.built && process.platform === 'linux') {
    console.warn(
      `mcp-roots: the sandbox helper was not built: ${result.why}. Confined servers get static protection (bind mounts) instead of the file view. ` +
        'Install a C compiler (Debian/Ubuntu: sudo apt-get install build-essential), then run `npm run build:native`.',
    );
  }
}
