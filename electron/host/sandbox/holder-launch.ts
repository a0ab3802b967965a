// The holder: a user + mount namespace the app owns, one per confined server, from which bwrap is
// started. The holder mounts the server's grants (grant-mounts.ts) into a shared tree that bwrap
// makes the sandbox's `/`; bwrap's copy of it is a slave, so mounts the app makes in the holder
// later (nsenter into the holder, live-mounts.ts) reach the running server, and mounts it drops
// leave it. The model is systemd-nspawn's propagation directory (`machinectl bind`).
//
//   unshare -U -r -m --propagation private -- sh -c SCRIPT holder bwrap …   (each execs in place:
//   the spawned pid becomes bwrap's, and /proc/<pid>/ns/{user,mnt} are the holder's)
//
// <data>/sandbox/servers/<id>/stage is a private tmpfs in the holder (the host never sees it):
//   stage/root     shared; bwrap binds it at `/`, then adds the system runtime over it
//   stage/pending  private; each grant is bound here first and made read-only here, then moved into
//                  root: propagated mounts do not get bwrap's read-only flag and remounts do not
//                  propagate, so a read-only grant is never visible read-write, not even for an instant
//
// Grant mounts are made in batches (holder-batch.ts): at start, every one, read back before bwrap
// runs; for a live change, the new ones, built in pending and read back there before they are moved
// into the sandbox. The app checks each folder just before (mount-descriptors.ts); the read-back
// proves the mount is that very folder (device and inode), at its place, with its mode.
import { batchCommands } from './holder-batch.js';
import { isWithin } from './sandbox-types.js';

/** A holder's exit status when a mount could not be made: the message on stderr says which. */
export const HOLDER_FAILED = 97;

/** Single-quoted for sh: any byte but NUL survives. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The holder's functions for live changes: `place PATH PENDING d|f` moves a tree built in pending
 * (holder-batch.ts) into the sandbox's root. mount -n: no utab to write (an
 * unprivileged holder cannot); -c: the paths are taken as given, never canonicalized.
 */
export function holderFunctions(stage: string): string {
  return [
    `S=${shellQuote(stage)}`,
    `fail() { echo "mcp-roots holder: $*" >&2; exit ${HOLDER_FAILED}; }`,
    // A folder's mount point is made (its parents too); a file's exists already: protected files lie
    // in a read-write root mounted before them, and creating one could write through a grant.
    // Mount points are made one folder at a time, never through a symlink: parts of the tree (its
    // /tmp, read-write grants) are the server's to write, and a symlink it planted must not make the
    // holder create folders elsewhere. (A swap between the check and the mkdir is not excluded: the
    // mount that lands elsewhere is caught by live-mounts.ts reading the holder's table, SECURITY.md.)
    'point() {',
    '  d="$S/root"; rest="${1#/}"',
    '  while [ -n "$rest" ]; do',
    '    c="${rest%%/*}"; if [ "$c" = "$rest" ]; then rest=""; else rest="${rest#*/}"; fi',
    '    d="$d/$c"',
    '    [ -L "$d" ] && fail "$1: $d is a symlink"',
    '    [ -d "$d" ] || mkdir "$d" || fail "$1 could not be made"',
    '  done',
    '}',
    'place() {',
    '  if [ "$3" = f ]; then [ -f "$S/root$1" ] && [ ! -L "$S/root$1" ] || fail "$1 has no file to be mounted on"; else point "$1"; fi',
    '  mount -n -c --move "$2" "$S/root$1" || fail "$1 could not be placed"',
    '  if [ "$3" = f ]; then rm -f "$2"; else rmdir "$2"; fi',
    '}',
  ].join('\n');
}

/** Moves a tree built in pending (holder-batch.ts liveBatch) to its place in the sandbox's root. */
export function placeCommand(mountPath: string, pending: string, directory: boolean): string {
  return `place ${shellQuote(mountPath)} ${shellQuote(pending)} ${directory ? 'd' : 'f'}`;
}

/**
 * One lazy unmount for a live change's dropped mounts. A lazy unmount takes a mount's children with
 * it, so only mounts below no other dropped one are named (mountChanges drops everything below a
 * dropped mount anyway); two at one path are both named, the upper one first.
 */
export function dropCommands(drop: readonly { path: string }[]): string[] {
  const tops = drop.filter((mount) => !drop.some((other) => other.path !== mount.path && isWithin(mount.path, other.path)));
  if (tops.length === 0) return [];
  return [`umount -n -c -l -- ${tops.map((mount) => `"$S/root"${shellQuote(mount.path)}`).join(' ')} || fail "${tops.length} mount(s) could not be unmounted"`];
}

export interface HolderInput {
  unshare: string;
  stage: string;
  /** The folder holding the start's grant mounts as one batch (holder-batch.ts), written before the spawn. */
  batch: string;
  /** The size of the sandbox's /tmp (resource-limits.ts), or undefined for tmpfs's default. */
  tmpBytes: number | undefined;
  /** A network namespace of its own too, for pasta to configure (private-network.ts); bwrap then shares it. */
  network?: boolean | undefined;
}

/** The holder's part of the command line: what goes between prlimit and bwrap. */
export function holderArgs(input: HolderInput): string[] {
  const script = [
    holderFunctions(input.stage),
    'mount -n -t tmpfs -o size=1m,mode=0700 stage "$S" && mkdir "$S/root" "$S/pending" || fail "no stage"',
    'mount -n -t tmpfs -o size=1m,mode=0755 root "$S/root" || fail "no root"',
    // The sandbox's /tmp, here rather than bwrap's, so that roots below it can come and go.
    `mkdir "$S/root/tmp" && mount -n -t tmpfs -o ${input.tmpBytes ? `size=${input.tmpBytes},` : ''}mode=1777 tmp "$S/root/tmp" || fail "no /tmp"`,
    'mount -n --make-rshared "$S/root" || fail "no shared root"',
    ...batchCommands({ dir: input.batch, quote: shellQuote }),
    'exec "$@"',
  ].join('\n');
  return [input.unshare, '-U', '-r', '-m', ...(input.network ? ['-n'] : []), '--propagation', 'private', '--', '/bin/sh', '-c', script, 'mcp-roots-holder'];
}
