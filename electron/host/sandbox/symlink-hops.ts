// The symlinks a path resolves through on the host, each where it lies and what it says, so a
// sandbox can recreate them and the path resolves inside exactly as it does outside (a program run
// as `~/tools/link/dist/index.js` with `link -> /opt/pkg`, a worktree whose node_modules is a
// link, a venv's python that must keep its name).
import fs from 'node:fs';
import path from 'node:path';

export interface SymlinkHop {
  /** Where the symlink lies: an absolute path with no symlink above it. */
  path: string;
  /** Its text as readlink gives it (a relative one stays relative: it resolves the same inside). */
  target: string;
}

/** The kernel's limit on links followed in one lookup (Linux's MAXSYMLINKS). */
const MAX_HOPS = 40;

/**
 * Every symlink met while resolving `file` (absolute), in the order met, the last component's
 * included. Stops at a component that does not exist or is not readable: what was met so far stays.
 */
export function symlinkHops(file: string): SymlinkHop[] {
  const hops: SymlinkHop[] = [];
  let current = '/';
  let rest = file.split('/').filter(Boolean);
  while (rest.length > 0) {
    const [name, ...after] = rest as [string, ...string[]];
    rest = after;
    if (name === '.') continue;
    if (name === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    let target: string;
    try {
      if (!fs.lstatSync(next).isSymbolicLink()) {
        current = next;
        continue;
      }
      target = fs.readlinkSync(next);
    } catch {
      return hops;
    }
    if (hops.length === MAX_HOPS) return hops;
    hops.push({ path: next, target });
    // The link's text replaces it: an absolute one from the top, a relative one from its folder.
    if (path.isAbsolute(target)) current = '/';
    rest = [...target.split('/').filter(Boolean), ...rest];
  }
  return hops;
}
