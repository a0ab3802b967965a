// The macOS Seatbelt (sandbox-exec) profile for one server, as a pure function. It denies by
// default and allows file access only to the system runtime and the server's own program (read),
// its roots (read, or read and write per grant) and its private HOME/TMPDIR (read and write).
// UNTESTED ON macOS: this machine has no macOS; the unit tests check the text, not its effect.
//
// Seatbelt decides by the LAST rule that matches an operation, so the order below is the
// precedence: runtime < program < roots < data-folder mask < private HOME/TMPDIR.
// The mach services and sysctls are the small set Node and Python need at start (the same family
// Chromium's and Anthropic's sandbox-runtime profiles allow); everything else stays denied.
import path from 'node:path';
import { isWithin, type ConfinementInput } from './sandbox-types.js';

export type SeatbeltInput = ConfinementInput;

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
  'com.apple.SecurityServer',
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
  if (input.network) lines.push('(allow network*)');
  return `${lines.join('\n')}\n`;
}
