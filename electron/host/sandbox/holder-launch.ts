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
// At start, every grant mount is made in one batch and read back before bwrap runs (holder-batch.ts).
// For a live change, each folder is opened in the holder, checked to be the folder the plan saw
// (device and inode, and its own path as the kernel names it: no symlink on the way), and bound
// from that descriptor, never by a path resolved again later (as mount-descriptors.ts does for bwrap).
import type { PathIdentity } from './mount-descriptors.js';
import type { GrantMount } from './grant-mounts.js';
import { batchCommands } from './holder-batch.js';
import { isWithin } from './sandbox-types.js';

/** A holder's exit status when a mount could not be made: the message on stderr says which. */
export const HOLDER_FAILED = 97;

/** Single-quoted for sh: any byte but NUL survives. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The holder's functions, shared by its start and every live change (one place for how a grant is
 * mounted): `add PATH DEV:INO ro|rw d|f`, `mask PATH`, `drop PATH`. mount -n: no utab to write (an
 * unprivileged holder cannot); -c: the paths are taken as given, never canonicalized.
 */
export function holderFunctions(stage: string): string {
  return [
    `S=${shellQuote(stage)}; n=0`,
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
    'add() {',
    '  exec 9<"$1" || fail "$1 cannot be opened"',
    '  [ "$(stat -L -c %d:%i /proc/self/fd/9)" = "$2" ] || fail "$1 was replaced since it was checked"',
    '  [ "$(readlink /proc/self/fd/9)" = "$1" ] || fail "$1 was reached through a symlink"',
    '  n=$((n+1)); p="$S/pending/$$.$n"',
    '  if [ "$4" = f ]; then : > "$p"; else mkdir "$p"; fi',
    '  mount -n -c --bind /proc/self/fd/9 "$p" || fail "$1 could not be bound"',
    '  exec 9<&-',
    '  if [ "$3" = ro ]; then mount -n -c -o remount,bind,ro "$p" || fail "$1 could not be made read-only"; fi',
    '  place "$1" "$p" "$4"',
    '}',
    'mask() { n=$((n+1)); p="$S/pending/$$.$n"; mkdir "$p" && mount -n -t tmpfs -o size=4k,mode=0755 mask "$p" || fail "$1 could not be masked"; place "$1" "$p" d; }',
    // A read-write folder with protected paths inside arrives whole: `tree` binds it in pending (the
    // holder's, private: nothing propagates from there), `sub` binds each protected path and anchor
    // into it, read-only where planned, and `plant` moves the finished tree into the sandbox's root
    // at once. Mounted one by one, the server could write .git/hooks or a placeholder in between.
    'opened() {',
    '  exec 9<"$1" || fail "$1 cannot be opened"',
    '  [ "$(stat -L -c %d:%i /proc/self/fd/9)" = "$2" ] || fail "$1 was replaced since it was checked"',
    '  [ "$(readlink /proc/self/fd/9)" = "$1" ] || fail "$1 was reached through a symlink"',
    '}',
    'tree() {',
    '  opened "$1" "$2"; n=$((n+1)); T="$S/pending/$$.$n"; H="$1"; mkdir "$T"',
    '  mount -n -c --bind /proc/self/fd/9 "$T" || fail "$1 could not be bound"; exec 9<&-',
    '  if [ "$3" = ro ]; then mount -n -c -o remount,bind,ro "$T" || fail "$1 could not be made read-only"; fi',
    '}',
    'sub() {',
    '  t="$T${1#"$H"}"; [ -L "$t" ] && fail "$1 is a symlink"',
    '  opened "$1" "$2"; mount -n -c --bind /proc/self/fd/9 "$t" || fail "$1 could not be bound"; exec 9<&-',
    '  if [ "$3" = ro ]; then mount -n -c -o remount,bind,ro "$t" || fail "$1 could not be made read-only"; fi',
    '}',
    'plant() { place "$H" "$T" d; }',
    'drop() { umount -n -c -l "$S/root$1" || fail "$1 could not be unmounted"; }',
  ].join('\n');
}

/** The command that mounts one grant mount; `identity` is required for everything but a mask. */
export function addCommand(mount: GrantMount, identity: PathIdentity | undefined): string {
  if (mount.purpose === 'mask') return `mask ${shellQuote(mount.path)}`;
  if (!identity) throw new Error(`no identity for ${mount.path}`);
  return `add ${shellQuote(mount.path)} ${identity.dev}:${identity.ino} ${mount.writable ? 'rw' : 'ro'} ${identity.directory ? 'd' : 'f'}`;
}

/**
 * The holder's commands for a live change's new mounts, in mount order. A writable mount with other
 * new mounts inside it (a read-write grant and its protected paths) is built whole in pending and
 * moved in at once (tree/sub/plant); the rest are added one by one. Throws where a mount inside
 * shares its folder's path (it would stack in pending and not move with it): a new start then.
 */
export function addCommands(add: readonly GrantMount[], identities: ReadonlyMap<string, PathIdentity>): string[] {
  const idOf = (mount: GrantMount) => {
    const identity = identities.get(mount.path);
    if (!identity) throw new Error(`no identity for ${mount.path}`);
    return `${identity.dev}:${identity.ino}`;
  };
  const done = new Set<GrantMount>();
  const lines: string[] = [];
  for (const mount of add) {
    if (done.has(mount)) continue;
    const inside = mount.writable && mount.purpose !== 'mask' ? add.filter((other) => other !== mount && !done.has(other) && isWithin(other.path, mount.path)) : [];
    if (inside.length === 0) {
      lines.push(addCommand(mount, identities.get(mount.path)));
      continue;
    }
    const clash = inside.find((other) => other.path === mount.path || other.purpose === 'mask');
    if (clash) throw new Error(`${clash.path} lies on ${mount.path} itself`);
    if (identities.get(mount.path)?.directory !== true) throw new Error(`${mount.path} is not a folder`);
    lines.push(`tree ${shellQuote(mount.path)} ${idOf(mount)} rw`);
    for (const other of inside) {
      lines.push(`sub ${shellQuote(other.path)} ${idOf(other)} ${other.writable ? 'rw' : 'ro'}`);
      done.add(other);
    }
    lines.push('plant');
  }
  return lines;
}

export function dropCommand(mountPath: string): string {
  return `drop ${shellQuote(mountPath)}`;
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
    ...batchCommands({ dir: input.batch, stage: input.stage, quote: shellQuote }),
    'exec "$@"',
  ].join('\n');
  return [input.unshare, '-U', '-r', '-m', ...(input.network ? ['-n'] : []), '--propagation', 'private', '--', '/bin/sh', '-c', script, 'mcp-roots-holder'];
}
