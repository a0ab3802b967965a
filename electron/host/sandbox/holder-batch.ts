// The holder's start, in one batch: every grant mount of a start is written to an fstab-format file
// that one `mount -a` mounts in order, and then read back (one `stat` for who each mount is, one awk
// over the holder's mount table for where and how it is mounted) before bwrap may run.
//
// Why a batch: the holder used to run ~7 programs per mount (open and check, bind, remount
// read-only, move, clean up). A read-write project holds ~15 protected names, and 100 plain folders
// took minutes to start, so missing names were held only in repositories. Now a start runs about
// ten programs whatever the count.
//
// Why checking after the mount is as safe as checking before: at start nothing runs in the holder's
// tree yet (bwrap has not started), and bwrap starts only after the read-back passed. A source
// swapped for a symlink between the app's plan and the mount gets another inode (refused); a target
// reached through a symlink lands elsewhere in the holder, and is missing from its place in the
// table (refused); a mount made read-write where planned read-only is refused too.
//
// Read-only binds: `bind,ro` in an fstab is a bind and then a remount, and in a user namespace the
// remount must repeat the flags the source's mount is locked with (nosuid, nodev, noexec), or the
// kernel refuses it (EPERM). Those are read from the app's mount table (mountFlagsOf), which the
// holder's namespace copies. Atime flags are kept by the kernel on a bind remount that names none.
import fs from 'node:fs';
import path from 'node:path';
import type { GrantMount } from './grant-mounts.js';
import type { PathIdentity } from './mount-descriptors.js';
import { isWithin } from './sandbox-types.js';

/** The files the holder reads at start, by name: written by the app in a folder no sandbox sees. */
export interface HolderBatch {
  /** fstab format, in mount order. */
  fstab: string;
  /** NUL-separated: the folders to make in the holder's private root (mounts no other mount holds). */
  points: string;
  /** NUL-separated: the same for a file mounted where no other mount holds it (an empty file made there). */
  files: string;
  /** NUL-separated: the targets whose identity is read back, in the order of `expect`'s identities. */
  targets: string;
  /** One line per mount: the target as the mount table writes it, its identity or "-", and ro|rw on top. */
  expect: string;
}

/** A mount's locked flags that a read-only remount must repeat, per source path. */
export type MountFlagsOf = (source: string) => readonly string[];

/**
 * Octal escapes for the characters that would split a field: the form fstab and the mount table use.
 * One escape per byte of the character's UTF-8 form: libmount and the kernel read exactly three
 * octal digits, so a code above 255 written whole (U+1680 as \13200) was read as "Z00": a folder
 * a server named so mounted somewhere else.
 */
function escaped(value: string, characters: RegExp): string {
  return value.replace(characters, (c) => [...Buffer.from(c, 'utf8')].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join(''));
}
/**
 * An fstab field: libmount splits a line at ASCII blanks (C's isspace) and unescapes any \ooo, so
 * those and the backslash are escaped; so is any other Unicode space, which costs nothing and keeps
 * every field free of what a reader might take for a blank.
 */
export const fstabField = (value: string) => escaped(value, /[\s\\]/g);
/** A mount point as /proc/<pid>/mountinfo writes it: only space, tab, newline and backslash escaped. */
export const mountinfoField = (value: string) => escaped(value, /[ \t\n\\]/g);

export function holderBatch(input: {
  stage: string;
  grantMounts: readonly GrantMount[];
  identities: ReadonlyMap<string, PathIdentity>;
  flagsOf: MountFlagsOf;
}): HolderBatch {
  const root = `${input.stage}/root`;
  // A mount inside another one finds its point there (a protected name in its project, a nested
  // root); the rest get one in the holder's private tmpfs, where nobody else can plant anything.
  const entries = input.grantMounts.map((mount, index) => ({
    mount,
    target: mount.path === '/' ? root : `${root}${mount.path}`,
    point: !input.grantMounts.some((other, i) => i < index && other.path !== mount.path && isWithin(mount.path, other.path)),
    // Covered at the same path by a later mask, it is not what a read-back finds there: only its place is checked.
    covered: input.grantMounts.some((other, i) => i > index && other.path === mount.path && other.purpose === 'mask'),
  }));
  return buildBatch(entries, input.identities, input.flagsOf);
}

/** A live change's new mounts, each group built in the holder's private pending folder, and where each group goes. */
export interface LiveBatch {
  files: HolderBatch;
  /** In mount order: the group's top mount, its tree in pending, and whether it is a folder (for `place`). */
  moves: { path: string; pending: string; directory: boolean }[];
}

/**
 * The batch for a live change: every new mount that lies inside no other new one heads a group,
 * bound in `pending` (private: nothing propagates from there) with the group's other mounts inside
 * it, read-only where planned, then read back, and only then moved into the sandbox's root whole
 * (`moves`). A read-write folder so never shows without its protected paths, and a read-only one
 * never read-write. Masks are not made live (the data folder's mask changes restart the server).
 */
export function liveBatch(input: {
  stage: string;
  add: readonly GrantMount[];
  identities: ReadonlyMap<string, PathIdentity>;
  flagsOf: MountFlagsOf;
  /** Unique per change: the pending folders' names. */
  tag: string;
}): LiveBatch {
  const heads: { mount: GrantMount; pending: string }[] = [];
  const entries = input.add.map((mount) => {
    if (mount.purpose === 'mask') throw new Error(`${mount.path}: a mask is not made live`);
    const head = heads.find((group) => isWithin(mount.path, group.mount.path));
    if (head) {
      // On the group's own path it would stack in pending and stay there when the group moves.
      if (head.mount.path === mount.path) throw new Error(`${mount.path} lies on ${head.mount.path} itself`);
      return { mount, target: `${head.pending}${mount.path.slice(head.mount.path === '/' ? 0 : head.mount.path.length)}`, point: false, covered: false };
    }
    const pending = `${input.stage}/pending/${input.tag}.${heads.length}`;
    heads.push({ mount, pending });
    return { mount, target: pending, point: true, covered: false };
  });
  return {
    files: buildBatch(entries, input.identities, input.flagsOf),
    moves: heads.map(({ mount, pending }) => ({ path: mount.path, pending, directory: input.identities.get(mount.path)?.directory !== false })),
  };
}

interface BatchEntry {
  mount: GrantMount;
  /** Where it is mounted in the holder. */
  target: string;
  /** Its mount point is made first (a folder, or an empty file for a file). */
  point: boolean;
  covered: boolean;
}

function buildBatch(entries: readonly BatchEntry[], identities: ReadonlyMap<string, PathIdentity>, flagsOf: MountFlagsOf): HolderBatch {
  const fstab: string[] = [];
  const expect: string[] = [];
  const targets: string[] = [];
  const points: string[] = [];
  const files: string[] = [];
  for (const { mount, target: at, point, covered } of entries) {
    const name = mountinfoField(mount.path);
    if (mount.purpose === 'mask') {
      if (point) points.push(at);
      fstab.push(`mask ${fstabField(at)} tmpfs size=4k,mode=0755 0 0`);
      expect.push(`${mountinfoField(at)}\t-\trw\t${name}`);
      continue;
    }
    const identity = identities.get(mount.path);
    if (!identity) throw new Error(`no identity for ${mount.path}`);
    if (point) (identity.directory ? points : files).push(at);
    const options = mount.writable ? ['bind'] : ['bind', 'ro', ...flagsOf(mount.path)];
    fstab.push(`${fstabField(mount.path)} ${fstabField(at)} none ${options.join(',')} 0 0`);
    if (!covered) targets.push(at);
    expect.push(`${mountinfoField(at)}\t${covered ? '-' : `${identity.dev}:${identity.ino}`}\t${mount.writable ? 'rw' : 'ro'}\t${name}`);
  }
  const nul = (list: readonly string[]) => list.map((entry) => `${entry}\0`).join('');
  return { fstab: fstab.map((line) => `${line}\n`).join(''), points: nul(points), files: nul(files), targets: nul(targets), expect: expect.map((line) => `${line}\n`).join('') };
}

/**
 * The awk program that reads the batch back: `expect`, then what `stat` printed for `targets`, then
 * the holder's mount table. It prints the first thing that is not as planned and exits 1.
 */
const READ_BACK = [
  'FILENAME == ARGV[1] { n++; t[n] = $1; id[n] = $2; last[$1] = $3; name[n] = $4; next }',
  'FILENAME == ARGV[2] { seen[++s] = $0; next }',
  '{ split($0, f, " "); top[f[5]] = substr(f[6], 1, 2) }',
  'END {',
  '  for (i = 1; i <= n; i++) {',
  '    if (id[i] != "-" && seen[++k] != id[i]) { print name[i] " was replaced since it was checked"; exit 1 }',
  '    if (!(t[i] in top)) { print name[i] " is not mounted at its place (a symlink on its way?)"; exit 1 }',
  '    if (top[t[i]] != last[t[i]]) { print name[i] " is mounted " top[t[i]] ", planned " last[t[i]]; exit 1 }',
  '  }',
  '}',
].join('\n');

/** The holder's start lines for a batch written to `dir` (after its stage is set up; S is the stage). */
export function batchCommands(input: { dir: string; quote: (value: string) => string }): string[] {
  const H = input.quote(input.dir);
  return [
    `xargs -0 -r mkdir -p -- < ${H}/points || fail "the mount points could not be made"`,
    `xargs -0 -r touch -- < ${H}/files || fail "the mount points could not be made"`,
    // mount -a goes on after a failure and says which: the holder then stops before bwrap.
    `mount -n -c -a -T ${H}/fstab || fail "the grants could not be mounted (see above)"`,
    `xargs -0 -r stat -c %d:%i -- < ${H}/targets > "$S/seen" || fail "the mounted grants could not be read back"`,
    `why=$(awk -F '\t' ${input.quote(READ_BACK)} ${H}/expect "$S/seen" /proc/self/mountinfo) || fail "$why"`,
  ];
}

/** Writes a batch's files into `dir` (made fresh, the app's only). */
export function writeHolderBatch(dir: string, batch: HolderBatch): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const [name, content] of Object.entries(batch)) fs.writeFileSync(path.join(dir, name), content, { mode: 0o600 });
}

/**
 * The flags each source's mount is locked with, from a mount table (the app's: the holder's is a
 * copy of it). The mount holding a path is the last listed at the longest mount point above it.
 */
export function mountFlagsOf(mountinfo: string = readOwnMountinfo()): MountFlagsOf {
  const entries = mountinfo
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const fields = line.split(' ');
      const point = (fields[4] ?? '').replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
      return { point, options: (fields[5] ?? '').split(',') };
    });
  return (source) => {
    let best: { point: string; options: string[] } | undefined;
    for (const entry of entries) {
      if (isWithin(source, entry.point) && (!best || entry.point.length >= best.point.length)) best = entry;
    }
    return (best?.options ?? []).filter((option) => LOCKED.has(option));
  };
}

/** The per-mount flags a user namespace may not clear (nosymfollow is kept too: dropping it would widen). */
const LOCKED = new Set(['nosuid', 'nodev', 'noexec', 'nosymfollow']);

function readOwnMountinfo(): string {
  try {
    return fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return '';
  }
}
