// The bubblewrap command line for one stdio server, as a pure function of what it may reach.
//
// Inside, the server sees one tree built on an empty, read-only tmpfs, every path at its own host
// path (so errors, roots and `${roots}` arguments mean the same inside and out):
//   system runtime (ro) · its own program (ro) · each effective root (ro or rw per grant) ·
//   a private HOME and TMPDIR (rw, kept on disk; TMPDIR seen at /tmp/.private) · a fresh /proc,
//   a minimal /dev, an empty /tmp.
//
// Taken from Flatpak (common/flatpak-run.c): merged-/usr top-level folders recreated as symlinks
// (`--symlink usr/lib /lib`), a hand-picked /etc instead of the host's, --die-with-parent,
// a fresh /proc in a new pid namespace, /dev from bwrap's minimal set.
// Taken from Anthropic's sandbox-runtime (src/sandbox/linux-sandbox-utils.ts): --new-session and
// --die-with-parent always; --unshare-pid with --proc (without both, host processes are visible
// and /proc/<pid>/root leads out); network off as --unshare-net.
// Not taken: sandbox-runtime starts from `--ro-bind / /` and denies a list (every unlisted secret
// stays readable), and keeps ~/.npm writable; Flatpak blocks TIOCSTI with seccomp because it keeps
// the terminal session for interactive apps, whereas MCP servers speak over pipes, so setsid
// (--new-session) detaches them from any terminal at no cost.
// Our own: --unshare-all (user, ipc, pid, net, uts, cgroup), --share-net only when the server's
// network is on; --disable-userns (bwrap 0.8+) so the server cannot make namespaces of its own;
// --cap-drop ALL (a no-op unprivileged, essential when the app runs as root); the app's data
// folder masked by an empty tmpfs wherever a grant would expose it (the registry holds every grant:
// a server that could write it could widen its own); `--remount-ro /` last, so nothing can be
// created at the top of the tree.
import path from 'node:path';
import type { HostLayout } from './host-layout.js';
import { limitsPrefix, type ResourceLimits } from './resource-limits.js';
import { isWithin, type ConfinementInput, type GrantedFolder, type SandboxMount } from './sandbox-types.js';

export interface BwrapPlanInput extends ConfinementInput {
  /** Absolute path of bwrap (from the probe). */
  bwrap: string;
  /** bwrap supports --disable-userns (from the probe). */
  disableUserns: boolean;
  /**
   * bwrap binds from descriptors (--bind-fd, 0.8+, like --disable-userns). Older ones bind by path,
   * where a symlink swapped in at start is not excluded: the self-check's detail says so.
   */
  bindFromDescriptors?: boolean | undefined;
  layout: HostLayout;
  /** The program, already resolved to an absolute path, and its arguments. */
  command: string;
  args: readonly string[];
  /** The server's own environment (the SDK adds its defaults beneath it); HOME and TMPDIR are replaced. */
  env: Readonly<Record<string, string>>;
  /** The server's working directory on the host, if it has one. */
  cwd?: string | undefined;
  /** Existing paths inside read-write roots that stay read-only (protected-paths.ts). */
  protectedPaths?: readonly string[] | undefined;
  /** Load the seccomp filter (seccomp-filter.ts) from the descriptor after the mounts'. */
  seccomp?: boolean | undefined;
  /** Tasks, memory and /tmp limits (resource-limits.ts); none when absent. */
  limits?: ResourceLimits | undefined;
}

export interface BwrapPlan {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Every path the server can reach, in mount order (later ones cover earlier ones). */
  mounts: SandboxMount[];
  /** Paths bound from descriptors, in descriptor order: the first is fd FIRST_DESCRIPTOR in bwrap. */
  descriptors: string[];
  /** The seccomp filter's descriptor follows the mounts'. */
  seccomp: boolean;
  /** Where the server starts: its cwd when that is reachable inside, else its private HOME. */
  chdir: string;
}

const depth = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);
/**
 * Shallower paths first, then by code unit: any fixed order will do (it only has to put parents
 * before children), and localeCompare's first call loads the ICU collator, ~18 ms of CPU that every
 * proxy paid at start-up for two or three paths.
 */
const byDepthThenPath = (a: string, b: string) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);

/** Program paths worth binding: outside the system runtime, and not inside another program path. */
function programMounts(programPaths: readonly string[], systemPaths: readonly string[]): string[] {
  const unique = [...new Set(programPaths)].sort(byDepthThenPath);
  const kept: string[] = [];
  for (const candidate of unique) {
    if (systemPaths.some((system) => isWithin(candidate, system))) continue;
    if (kept.some((outer) => isWithin(candidate, outer))) continue;
    kept.push(candidate);
  }
  return kept;
}

/**
 * Roots in mount order: parents before children, so a nested root keeps its own mode (a read-only
 * folder inside a read-write one stays read-only, and the other way round). A root listed twice
 * keeps its most permissive mode: two grants of one folder can only come from one decision.
 */
function rootMounts(roots: readonly GrantedFolder[]): GrantedFolder[] {
  const byPath = new Map<string, GrantedFolder>();
  for (const root of roots) {
    const seen = byPath.get(root.path);
    if (!seen || (seen.mode === 'read-only' && root.mode === 'read-write')) byPath.set(root.path, root);
  }
  return [...byPath.values()].sort((a, b) => byDepthThenPath(a.path, b.path));
}

/** Where the private temp folder is seen inside, and TMPDIR: short enough for Unix socket paths below it. */
export const PRIVATE_TMP = '/tmp/.private';

/** The first descriptor bwrap gets (0-2 are the server's stdio). */
export const FIRST_DESCRIPTOR = 3;

/**
 * Folders on the way from a read-write root down to a target (both excluded), each bound onto
 * itself so that it is a mount point inside: a mount point cannot be renamed or removed (EBUSY).
 * Targets are the data folder (a server granted ~ must not move ~/.config aside and put a data
 * folder of its own, with a registry that frees it, in its place) and the protected paths (a server
 * must not rename .git and make a new one with hooks of its own). Each keeps the mode of the
 * deepest root over it.
 */
export function pinnedAncestors(roots: readonly GrantedFolder[], targets: readonly string[]): GrantedFolder[] {
  const pinned = new Map<string, GrantedFolder>();
  for (const root of roots) {
    if (root.mode !== 'read-write') continue;
    for (const target of targets) {
      if (target === root.path || !isWithin(target, root.path)) continue;
      for (let dir = path.posix.dirname(target); dir !== root.path && isWithin(dir, root.path); dir = path.posix.dirname(dir)) {
        // A root is a mount point already; a folder seen once is pinned once.
        if (pinned.has(dir) || roots.some((other) => other.path === dir)) continue;
        const deepest = roots.filter((other) => isWithin(dir, other.path)).sort((a, b) => depth(b.path) - depth(a.path))[0] as GrantedFolder;
        pinned.set(dir, { path: dir, mode: deepest.mode });
      }
    }
  }
  return [...pinned.values()];
}

export function planBwrap(input: BwrapPlanInput): BwrapPlan {
  const args: string[] = ['--unshare-all', '--unshare-user'];
  if (input.disableUserns) args.push('--disable-userns');
  if (input.network) args.push('--share-net');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');

  const mounts: SandboxMount[] = [];
  const descriptors: string[] = [];
  const bind = (flag: string, path: string, mount: Omit<SandboxMount, 'path'>) => {
    args.push(flag, path, path);
    mounts.push({ path, ...mount });
  };
  /** Bound from a descriptor opened just before the spawn (mount-descriptors.ts), never by path. */
  const bindFd = (path: string, writable: boolean, purpose: SandboxMount['purpose']) => {
    if (input.bindFromDescriptors === false) {
      args.push(writable ? '--bind' : '--ro-bind', path, path);
    } else {
      args.push(writable ? '--bind-fd' : '--ro-bind-fd', String(FIRST_DESCRIPTOR + descriptors.length), path);
      descriptors.push(path);
    }
    mounts.push({ path, writable, purpose });
  };

  // System runtime, read-only: owned by root, nothing a server can write decides what they hold.
  bind('--ro-bind', '/usr', { writable: false, purpose: 'system' });
  const systemPaths = ['/usr'];
  for (const entry of input.layout.topLevel) {
    if ('symlinkTo' in entry) {
      args.push('--symlink', entry.symlinkTo, entry.path);
    } else {
      bind('--ro-bind-try', entry.path, { writable: false, purpose: 'system' });
      systemPaths.push(entry.path);
    }
  }
  for (const entry of input.layout.etc) {
    bind('--ro-bind-try', entry, { writable: false, purpose: 'system' });
    systemPaths.push(entry);
  }
  // A fresh /proc for the new pid namespace, bwrap's minimal /dev, and an empty /tmp that is gone
  // at exit (programs that ignore TMPDIR still work; roots under /tmp are mounted on top of it).
  // /proc/sys and /proc/sysrq-trigger read-only, as Docker makes them: sysctls are not namespaced,
  // and a server of an app run as root is host uid 0 to their permission check (it could set
  // kernel.core_pattern, which the kernel runs as full root).
  args.push('--proc', '/proc', '--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger');
  args.push('--dev', '/dev');
  if (input.limits) args.push('--size', String(input.limits.tmpBytes));
  args.push('--tmpfs', '/tmp');
  mounts.push({ path: '/proc', writable: false, purpose: 'system' }, { path: '/proc/sys', writable: false, purpose: 'system' });
  mounts.push({ path: '/dev', writable: false, purpose: 'system' }, { path: '/tmp', writable: true, purpose: 'tmp' });

  const programs = programMounts(input.programPaths, systemPaths);
  for (const program of programs) bindFd(program, false, 'program');

  // Roots, the data folder's anchors and the protected paths, parents before children; at one path
  // a root comes first and a protected path last, so protection holds over a grant of the same folder.
  const roots = rootMounts(input.roots);
  const order = { root: 0, anchor: 1, protected: 2 } as const;
  const tree = [
    ...roots.map((root) => ({ ...root, kind: 'root' as const })),
    ...pinnedAncestors(roots, [input.dataDir, ...(input.protectedPaths ?? [])]).map((anchor) => ({ ...anchor, kind: 'anchor' as const })),
    ...(input.protectedPaths ?? []).map((p) => ({ path: p, mode: 'read-only' as const, kind: 'protected' as const })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || order[a.kind] - order[b.kind] || byDepthThenPath(a.path, b.path));
  for (const entry of tree) bindFd(entry.path, entry.mode === 'read-write', entry.kind === 'root' ? 'root' : entry.kind);

  const exposesDataDir = [...roots.map((root) => root.path), ...programs].some((outer) => isWithin(input.dataDir, outer));
  if (exposesDataDir) {
    args.push('--tmpfs', input.dataDir);
    mounts.push({ path: input.dataDir, writable: false, purpose: 'mask' });
  }

  bind('--bind', input.home, { writable: true, purpose: 'home' });
  // The private temp folder (TMPDIR) at a short path: a Unix socket's path has at most 107 bytes,
  // and Chromium's `<data>/sandbox/servers/<uuid>/tmp/org.chromium.Chromium.XXXXXX/SingletonSocket`
  // had 122 (it aborted). Still private and kept on disk. Inside the fresh /tmp, not onto /tmp
  // itself: mount points for roots under /tmp would be left in it, and a revoked folder would
  // still exist, empty, at its next start.
  // With limits, it lives in the capped /tmp tmpfs (a disk folder could grow without bound), and
  // goes when the server exits; without, it is the persistent folder on disk.
  if (input.limits) args.push('--dir', PRIVATE_TMP);
  else args.push('--bind', input.tmp, PRIVATE_TMP);
  mounts.push({ path: PRIVATE_TMP, writable: true, purpose: 'tmp' });
  // Read-only once the mount points below them exist (a remount does not reach the mounts below).
  if (exposesDataDir) args.push('--remount-ro', input.dataDir);
  args.push('--remount-ro', '/');
  // Last, so that bwrap's own setup above is not filtered; it applies to the server from its exec on.
  const seccomp = input.seccomp === true;
  if (seccomp) args.push('--seccomp', String(FIRST_DESCRIPTOR + descriptors.length));

  const chdir = input.cwd && reachableInside(input.cwd, mounts) ? input.cwd : input.home;
  args.push('--chdir', chdir, '--', input.command, ...input.args);

  // A shell joins the server's cgroup and prlimit sets the rlimits, each exec'ing the next in place:
  // the same pid becomes bwrap, and every process inside inherits both.
  const [launcher, ...prefix] = input.limits ? limitsPrefix(input.limits) : [];
  return {
    command: launcher ?? input.bwrap,
    args: launcher ? [...prefix, input.bwrap, ...args] : args,
    env: { ...input.env, HOME: input.home, TMPDIR: PRIVATE_TMP },
    mounts,
    descriptors,
    seccomp,
    chdir,
  };
}

/** Whether a host folder exists inside: the deepest mount covering it decides, as in the kernel. */
export function reachableInside(dir: string, mounts: readonly SandboxMount[]): boolean {
  const deepest = mounts.filter((mount) => isWithin(dir, mount.path)).sort((a, b) => depth(b.path) - depth(a.path))[0];
  if (!deepest || deepest.purpose === 'mask') return false;
  // /tmp is an empty tmpfs: only what is mounted onto it exists below it.
  return !(deepest.path === '/tmp' && dir !== '/tmp');
}
