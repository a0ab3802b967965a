// The macOS Seatbelt (sandbox-exec) profile for one server, as a pure function. It denies by
// default and allows file access only to the system runtime and the server's own program (read),
// its roots (read, or read and write per grant) and its private HOME/TMPDIR (read and write).
// UNTESTED ON macOS: this machine has no macOS; the unit tests check the text, not its effect.
//
// Seatbelt decides by the LAST rule that matches an operation, so the order below is the
// precedence: runtime < program < roots < data-folder mask < private HOME/TMPDIR.
// The mach services and sysctls are the small set Node and Python need at start (the same family
// Chromium's and Anthropic's sandbox-runtime profiles allow); everything else stays denied. Not
// com.apple.SecurityServer: that is the keychain (where the app keeps its own secrets key).
// The classes the Linux sandbox closes (#22), in Seatbelt's terms, last so they win:
// - the protected paths (protected-paths.ts) are denied writes inside every writable root, at any
//   depth and whether they exist or not (Seatbelt matches paths by regex; Linux can hold only
//   existing ones, by mounts);
// - the data folder and every folder above it inside a writable root cannot be written as entries
//   (renamed, removed, replaced);
// - Unix sockets are not reachable, even with the network on.
import path from 'node:path';
import { HOME_ENTRIES, PROJECT_ENTRIES } from './protected-paths.js';
import { isWithin, type ConfinementInput } from './sandbox-types.js';

export interface SeatbeltInput extends ConfinementInput {
  /** The person's home folder: its start-up files are protected where a writable root holds it. */
  userHome: string;
}

/** A regex literal's text for a path, every character that means something in a regex escaped. */
const regexPath = (p: string) => p.replace(/[.*+?^${}()|[\]\\"]/g, '\\$&');

/** Writes denied inside the writable roots: the protected names at any depth, and home's own entries. */
export function protectedPatterns(writableRoots: readonly string[], userHome: string): string[] {
  const names = PROJECT_ENTRIES.map(regexPath).join('|');
  const patterns = writableRoots.map((root) => `^${regexPath(root === '/' ? '' : root)}/(.*/)?(${names})(/|$)`);
  if (writableRoots.some((root) => isWithin(userHome, root))) {
    patterns.push(`^${regexPath(userHome)}/(${HOME_ENTRIES.map(regexPath).join('|')})(/|$)`);
  }
  return patterns;
}

/** macOS's runtime: system frameworks, the shared dyld cache, /usr, and a few /private/etc files. */
export const SEATBELT_RUNTIME_SUBPATHS = ['/usr', '/bin', '/sbin', '/System', '/Library/Apple', '/private/var/db/timezone', '/private/var/db/dyld'];
export const SEATBELT_RUNTIME_LITERALS = [
  '/private/etc/hosts',
  '/private/etc/resolv.conf',
  '/private/etc/passwd',
  '/private/etc/group',
  '/private/etc/localtime',
  '/private/etc/ssl/cert.pem',
  '/private/etc/ssl/openssl.cnf',
  '/private/var/run/resolv.conf',
  '/etc',
  '/var',
  '/tmp',
];
const MACH_SERVICES = [
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.system.opendirectoryd.membership',
  'com.apple.system.logger',
  'com.apple.logd',
  'com.apple.trustd.agent',
  'com.apple.bsd.dirhelper',
  'com.apple.system.notification_center',
];

/** An SBPL string literal: the syntax takes C-style escapes, which JSON's match for paths. */
export const sbplString = (value: string): string => JSON.stringify(value);

const subpaths = (paths: readonly string[]) => paths.map((p) => `(subpath ${sbplString(p)})`).join(' ');
const literals = (paths: readonly string[]) => paths.map((p) => `(literal ${sbplString(p)})`).join(' ');

/** Every ancestor of the allowed paths: realpath and stat walk them, and they say nothing else. */
function ancestors(paths: readonly string[]): string[] {
  const result = new Set<string>();
  for (const p of paths) {
    for (let dir = path.posix.dirname(p); ; dir = path.posix.dirname(dir)) {
      result.add(dir);
      if (dir === '/') break;
    }
  }
  return [...result].sort();
}

export function seatbeltProfile(input: SeatbeltInput): string {
  const readOnlyRoots = input.roots.filter((root) => root.mode === 'read-only').map((root) => root.path);
  const writableRoots = input.roots.filter((root) => root.mode === 'read-write').map((root) => root.path);
  const readable = [...SEATBELT_RUNTIME_SUBPATHS, ...input.programPaths];
  const everything = [...readable, ...input.roots.map((root) => root.path), input.home, input.tmp];
  const exposesDataDir = [...input.programPaths, ...input.roots.map((root) => root.path)].some((outer) => isWithin(input.dataDir, outer));
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow ipc-posix-shm ipc-posix-sem)',
    `(allow mach-lookup ${MACH_SERVICES.map((name) => `(global-name ${sbplString(name)})`).join(' ')})`,
    `(allow file-read-metadata ${literals(ancestors(everything))})`,
    `(allow file-read* ${subpaths(SEATBELT_RUNTIME_SUBPATHS)} ${literals(SEATBELT_RUNTIME_LITERALS)})`,
    '(allow file-read* file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (subpath "/dev/fd"))',
    '(allow file-read* (literal "/dev/random") (literal "/dev/urandom"))',
    `(allow process-exec ${subpaths(readable)})`,
  ];
  if (input.programPaths.length > 0) lines.push(`(allow file-read* ${subpaths(input.programPaths)})`);
  if (readOnlyRoots.length > 0) lines.push(`(allow file-read* ${subpaths(readOnlyRoots)})`);
  if (writableRoots.length > 0) lines.push(`(allow file-read* file-write* ${subpaths(writableRoots)})`);
  // A read-only root inside a writable one stays read-only (later rules win).
  const readOnlyInsideWritable = readOnlyRoots.filter((ro) => writableRoots.some((rw) => ro !== rw && isWithin(ro, rw)));
  if (readOnlyInsideWritable.length > 0) lines.push(`(deny file-write* ${subpaths(readOnlyInsideWritable)})`);
  if (exposesDataDir) lines.push(`(deny file-read* file-write* ${subpaths([input.dataDir])})`);
  lines.push(`(allow file-read* file-write* ${subpaths([...new Set([input.home, input.tmp])])})`);
  if (writableRoots.length > 0) {
    lines.push(`(deny file-write* ${protectedPatterns(writableRoots, input.userHome).map((pattern) => `(regex #${sbplString(pattern)})`).join(' ')})`);
    const above = ancestors([input.dataDir]).filter((dir) => writableRoots.some((root) => dir !== root && isWithin(dir, root)));
    if (above.length > 0) lines.push(`(deny file-write* ${literals([...above, input.dataDir])})`);
  }
  if (input.network) lines.push('(allow network*)', '(deny network* (remote unix-socket))');
  return `${lines.join('\n')}\n`;
}
