// The bubblewrap command line for one stdio server, as a pure function of what it may reach.
//
// Inside, the server sees one tree built on an empty, read-only tmpfs, every path at its own host
// path (so errors, roots and `${roots}` arguments mean the same inside and out):
//   system runtime (ro) · its own program (ro) · each effective root (ro or rw per grant) ·
//   a private HOME (rw, kept on disk) and TMPDIR (/tmp/.private: inside the capped /tmp with limits,
//   else kept on disk) · a fresh /proc,
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
import type { HostLayout } from './host-layout.js';
import { limitsPrefix, type ResourceLimits } from './resource-limits.js';
import { byDepthThenPath, depth, grantTree, type GrantMount } from './grant-mounts.js';
import { isWithin, type ConfinementInput, type SandboxMount } from './sandbox-types.js';

export { pinnedAncestors } from './grant-mounts.js';
import type { SymlinkHop } from './symlink-hops.js';

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
  /** The symlinks the program is reached through (program-location.ts): recreated where no mount shows them. */
  programLinks?: readonly SymlinkHop[] | undefined;
  /** Existing paths inside read-write roots that stay read-only (protected-paths.ts). */
  protectedPaths?: readonly string[] | undefined;
  /** Load the seccomp filter (seccomp-filter.ts) from the descriptor after the mounts'. */
  seccomp?: boolean | undefined;
  /** Tasks, memory and /tmp limits (resource-limits.ts); none when absent. */
  limits?: ResourceLimits | undefined;
  /**
   * Started by the sandbox helper with a file view (view/): the view, mounted on `stage` by the
   * helper's holder, is the sandbox's `/`. It shows the grants, /tmp, the links and the way to each
   * mount point, so bwrap binds only the system runtime, the program, HOME, /proc and /dev on top.
   */
  view?: { stage: string; uid: number; gid: number } | undefined;
  /**
   * Network on in a namespace of its own, held by the process in front of bwrap (the holder), that pasta configures
   * (private-network.ts): bwrap shares it and waits on --block-fd until that is done.
   */
  privateNetwork?: boolean | undefined;
  /** With a private network: the file shown at /etc/resolv.conf instead of the host's (private-network.ts privateResolvConf). */
  resolvConf?: string | undefined;
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
  /** The grant-related mounts (grant-mounts.ts) bwrap binds (none with a file view: it shows the grants). */
  grantMounts: GrantMount[];
  /** bwrap and its arguments, without the limits prefix (the sandbox helper goes between the two). */
  bwrapCommand: string[];
  /**
   * The limits prefix (resource-limits.ts limitsPrefix: join the server's cgroup, then prlimit),
   * empty without limits. In front of anything else, so every process is born in the cgroup and limited.
   */
  prefix: string[];
  /** The program paths bound (those outside the system runtime). */
  programs: string[];
  /** A private network: bwrap's --block-fd, the descriptor after all others. */
  blockFd?: number | undefined;
  /** With a view: what the view must show for bwrap's mounts (view-plan.ts). */
  view?: ViewShape | undefined;
}

/** What bwrap needs of a view: a folder at each of its mount points, and the links it would otherwise make. */
export interface ViewShape {
  mountPoints: string[];
  links: { path: string; target: string }[];
  /** Program folders shown by the view (read-only) instead of bound: they hold a grant or the data folder. */
  viewedPrograms: string[];
}

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

/** Where the private temp folder is seen inside, and TMPDIR: short enough for Unix socket paths below it. */
export const PRIVATE_TMP = '/tmp/.private';

/** The first descriptor bwrap gets (0-2 are the server's stdio). */
export const FIRST_DESCRIPTOR = 3;

export function planBwrap(input: BwrapPlanInput): BwrapPlan {
  const args: string[] = ['--unshare-all', '--unshare-user'];
  if (input.disableUserns) args.push('--disable-userns');
  // On: the network namespace bwrap is started in, the host's or a private one (private-network.ts).
  if (input.network) args.push('--share-net');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  // With a view, the view is the root (the helper's holder mounted it on the stage). The holder maps
  // the app's uid to 0 in its namespace; inside, the server is the app's uid again.
  const view = input.view;
  if (view) args.push('--uid', String(view.uid), '--gid', String(view.gid), '--bind', view.stage, '/');
  const viewLinks: { path: string; target: string }[] = [];

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
      if (view) viewLinks.push({ path: entry.path, target: entry.symlinkTo });
      else args.push('--symlink', entry.symlinkTo, entry.path);
    } else {
      bind('--ro-bind-try', entry.path, { writable: false, purpose: 'system' });
      systemPaths.push(entry.path);
    }
  }
  for (const entry of input.layout.etc) {
    if (entry === '/etc/resolv.conf' && input.resolvConf) {
      args.push('--ro-bind', input.resolvConf, entry);
      mounts.push({ path: entry, writable: false, purpose: 'system' });
    } else bind('--ro-bind-try', entry, { writable: false, purpose: 'system' });
    systemPaths.push(entry);
  }
  // A host without /etc/resolv.conf (none in the layout) still gets the private one.
  if (input.resolvConf && !input.layout.etc.includes('/etc/resolv.conf')) {
    args.push('--ro-bind', input.resolvConf, '/etc/resolv.conf');
    mounts.push({ path: '/etc/resolv.conf', writable: false, purpose: 'system' });
  }
  // A fresh /proc for the new pid namespace, bwrap's minimal /dev, and an empty /tmp that is gone
  // at exit (programs that ignore TMPDIR still work; roots under /tmp are mounted on top of it).
  // /proc/sys and /proc/sysrq-trigger read-only, as Docker makes them: sysctls are not namespaced,
  // and a server of an app run as root is host uid 0 to their permission check (it could set
  // kernel.core_pattern, which the kernel runs as full root).
  args.push('--proc', '/proc', '--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger');
  args.push('--dev', '/dev');
  // With a view, the view shows /tmp (the helper's private tmpfs, with the grants below /tmp in it).
  if (!view) {
    if (input.limits) args.push('--size', String(input.limits.tmpBytes));
    args.push('--tmpfs', '/tmp');
  }
  mounts.push({ path: '/proc', writable: false, purpose: 'system' }, { path: '/proc/sys', writable: false, purpose: 'system' });
  mounts.push({ path: '/dev', writable: false, purpose: 'system' }, { path: '/tmp', writable: true, purpose: 'tmp' });

  const allPrograms = programMounts(input.programPaths, systemPaths);
  // With a view: a program folder inside a grant is shown by the view already (with the grant's
  // mode: a developer's own server in its repository); one that holds a grant or the data folder is
  // shown by the view read-only too, so that the grant and the data folder's mask stay what they are.
  const viewedPrograms = view ? allPrograms.filter((program) => input.roots.some((root) => isWithin(root.path, program)) || isWithin(input.dataDir, program)) : [];
  const programs = view ? allPrograms.filter((program) => !viewedPrograms.includes(program) && !input.roots.some((root) => isWithin(program, root.path))) : allPrograms;
  for (const program of programs) bindFd(program, false, 'program');

  // Roots, the data folder's anchors, the protected paths and the data folder's mask (grant-mounts.ts).
  const grantMounts = view ? [] : grantTree({ roots: input.roots, dataDir: input.dataDir, protectedPaths: input.protectedPaths ?? [], programs });
  const exposesDataDir = grantMounts.some((mount) => mount.purpose === 'mask');
  // The view shows the grants; listed here as what the server can reach (the UI, a blocked path's words).
  if (view) for (const root of input.roots) mounts.push({ path: root.path, writable: root.mode === 'read-write', purpose: 'root' });
  for (const entry of grantMounts) {
    if (entry.purpose === 'mask') {
      args.push('--tmpfs', entry.path);
      mounts.push(entry);
    } else bindFd(entry.path, entry.writable, entry.purpose);
  }

  bind('--bind', input.home, { writable: true, purpose: 'home' });
  // The private temp folder (TMPDIR) at a short path: a Unix socket's path has at most 107 bytes,
  // and Chromium's `<data>/sandbox/servers/<uuid>/tmp/org.chromium.Chromium.XXXXXX/SingletonSocket`
  // had 122 (it aborted). Still private and kept on disk. Inside the fresh /tmp, not onto /tmp
  // itself: mount points for roots under /tmp would be left in it, and a revoked folder would
  // still exist, empty, at its next start.
  // With limits, it lives in the capped /tmp tmpfs (a disk folder could grow without bound), and
  // goes when the server exits; without, it is the persistent folder on disk.
  // With a view, the view shows it: a folder of the holder's tmpfs, or the folder on disk (view-plan.ts).
  if (view) {
    // Nothing to do here.
  } else if (input.limits) args.push('--dir', PRIVATE_TMP);
  else args.push('--bind', input.tmp, PRIVATE_TMP);
  mounts.push({ path: PRIVATE_TMP, writable: true, purpose: 'tmp' });
  // The program's own symlinks, so it runs by the path it was given (Node would resolve a script's
  // real path itself, but not a symlinked interpreter's, a shebang's or a venv python's by name).
  // A link changes nothing that is bound: its target is bound, or not, by the program's paths.
  const layoutLinks = new Set(input.layout.topLevel.flatMap((entry) => ('symlinkTo' in entry ? [entry.path] : [])));
  for (const link of linksToMake(input.programLinks ?? [], mounts, layoutLinks)) {
    if (view) viewLinks.push({ path: link.path, target: link.target });
    else args.push('--symlink', link.target, link.path);
  }
  // Read-only once the mount points below them exist (a remount does not reach the mounts below).
  // A view is read-only where it is synthetic by itself, and a remount would make its grants read-only too.
  if (exposesDataDir) args.push('--remount-ro', input.dataDir);
  if (!view) args.push('--remount-ro', '/');
  // Last, so that bwrap's own setup above is not filtered; it applies to the server from its exec on.
  const seccomp = input.seccomp === true;
  if (seccomp) args.push('--seccomp', String(FIRST_DESCRIPTOR + descriptors.length));
  const blockFd = input.network && input.privateNetwork ? FIRST_DESCRIPTOR + descriptors.length + (seccomp ? 1 : 0) : undefined;
  if (blockFd !== undefined) args.push('--block-fd', String(blockFd));

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
    grantMounts,
    bwrapCommand: [input.bwrap, ...args],
    prefix: [...(launcher ? [launcher] : []), ...prefix],
    programs,
    blockFd,
    view: view
      ? {
          // Every mount bwrap makes on top of the view needs a folder there (bwrap would try to make one, and the view refuses).
          mountPoints: mounts.filter((mount) => mount.purpose !== 'root' && mount.purpose !== 'tmp' && mount.path !== '/proc/sys').map((mount) => mount.path),
          links: viewLinks,
          viewedPrograms,
        }
      : undefined,
  };
}

/**
 * The links to create: each once, not where a mount shows the host's folder (the link is there
 * already, and a bound folder must not be written to), not where a mount point is at or below it,
 * not where the layout made one. Left: links on the empty top of the tree or in the fresh /tmp.
 */
function linksToMake(links: readonly SymlinkHop[], mounts: readonly SandboxMount[], made: ReadonlySet<string>): SymlinkHop[] {
  const byPath = new Map<string, SymlinkHop>();
  for (const link of links) {
    if (made.has(link.path) || byPath.has(link.path)) continue;
    if (mounts.some((mount) => isWithin(mount.path, link.path))) continue;
    const deepest = mounts.filter((mount) => isWithin(link.path, mount.path)).sort((a, b) => depth(b.path) - depth(a.path))[0];
    if (deepest && deepest.path !== '/tmp') continue;
    byPath.set(link.path, link);
  }
  return [...byPath.values()];
}

/** Whether a host folder exists inside: the deepest mount covering it decides, as in the kernel. */
export function reachableInside(dir: string, mounts: readonly SandboxMount[]): boolean {
  const deepest = mounts.filter((mount) => isWithin(dir, mount.path)).sort((a, b) => depth(b.path) - depth(a.path))[0];
  if (!deepest || deepest.purpose === 'mask') return false;
  // /tmp is an empty tmpfs: only what is mounted onto it exists below it.
  return !(deepest.path === '/tmp' && dir !== '/tmp');
}
