// "Blocked, and told why": reads a confined server's stderr and recognises a failure caused by the
// sandbox, so the UI can name the path and offer "Grant this folder" or "Run without sandbox".
// Pure: the caller says what exists on the host and what the sandbox mounts.
import path from 'node:path';
import type { SensitiveFolderKind } from '../../../shared/sandbox.js';
import { reachableInside } from './bwrap-plan.js';
import { isWithin, type SandboxMount } from './sandbox-types.js';

export type BlockedKind =
  /** The path exists on the host but not inside: it is outside the server's grants. */
  | 'outside-grants'
  /** A write into a folder granted read-only. */
  | 'read-only-grant'
  /** bwrap itself could not set the sandbox up (a program path vanished, a mount refused). */
  | 'sandbox-setup';

export interface BlockedPath {
  kind: BlockedKind;
  /** The path the server failed on (absolute, as it printed it). */
  path: string;
  /** The folder to offer for a grant: the path if it is a folder on the host, else its nearest existing ancestor. */
  folder: string;
  /** The error's code as printed (ENOENT, EACCES, EROFS, EPERM), or 'bwrap'. */
  code: string;
  /** The stderr line it was read from. */
  line: string;
  /** Set when granting `folder` would expose something sensitive (sensitive-folders.ts). */
  sensitive?: SensitiveFolderKind | undefined;
}

export interface HostFacts {
  exists(p: string): boolean;
  isDirectory(p: string): boolean;
}

// Node (`ENOENT: no such file or directory, open '/x'`), Python (`[Errno 2] No such file or
// directory: '/x'`), C tools (`/x: No such file or directory`), each for the errors a missing mount
// (ENOENT), a hidden or read-only one (EACCES, EPERM, EROFS) gives.
const ERROR_CODES: [RegExp, string][] = [
  [/\bENOENT\b|no such file or directory|errno 2\b/i, 'ENOENT'],
  [/\bEROFS\b|read-only file system|errno 30\b/i, 'EROFS'],
  [/\bEACCES\b|permission denied|errno 13\b/i, 'EACCES'],
  [/\bEPERM\b|operation not permitted|errno 1\b/i, 'EPERM'],
  // server-filesystem: "Warning: Cannot access directory /x, skipping".
  [/\b(cannot|can't|could not|unable to) access\b/i, 'inaccessible'],
];
// Quoted absolute paths first ('/x', "/x"), then a bare one followed by a colon or the line's end.
const QUOTED_PATH = /(['"`])(\/[^'"`\n]*)\1/g;
const BARE_PATH = /(?:^|[\s(])(\/[^\s:'"`,)]+)(?=[:\s,)]|$)/g;

function pathsIn(line: string): string[] {
  const quoted = [...line.matchAll(QUOTED_PATH)].map((match) => match[2] as string);
  if (quoted.length > 0) return quoted;
  return [...line.matchAll(BARE_PATH)].map((match) => match[1] as string);
}

function nearestExisting(p: string, host: HostFacts): string {
  for (let dir = p; ; dir = path.posix.dirname(dir)) {
    if (host.isDirectory(dir)) return dir;
    if (dir === '/') return '/';
  }
}

/** The first stderr line that shows the sandbox in the way, or undefined when none does. */
export function findBlockedPath(lines: readonly string[], mounts: readonly SandboxMount[], host: HostFacts): BlockedPath | undefined {
  for (const line of lines) {
    if (line.startsWith('bwrap: ')) {
      const failed = pathsIn(line)[0] ?? '/';
      return { kind: 'sandbox-setup', path: failed, folder: nearestExisting(failed, host), code: 'bwrap', line };
    }
    const code = ERROR_CODES.find(([pattern]) => pattern.test(line))?.[1];
    if (!code) continue;
    for (const candidate of pathsIn(line)) {
      const p = path.posix.normalize(candidate);
      if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
        const readOnlyRoot = mounts
          .filter((mount) => mount.purpose === 'root' && isWithin(p, mount.path))
          .sort((a, b) => b.path.length - a.path.length)[0];
        if (readOnlyRoot && !readOnlyRoot.writable) {
          return { kind: 'read-only-grant', path: p, folder: readOnlyRoot.path, code, line };
        }
      }
      // What the server reached for, as far as it exists on the host: a file it meant to create
      // counts by its folder. Nothing on the host at all (only `/` exists) is the server's own mistake.
      const target = host.exists(p) ? p : nearestExisting(path.posix.dirname(p), host);
      if (target !== '/' && !reachableInside(target, mounts)) {
        return { kind: 'outside-grants', path: p, folder: host.isDirectory(target) ? target : path.posix.dirname(target), code, line };
      }
    }
  }
  return undefined;
}
