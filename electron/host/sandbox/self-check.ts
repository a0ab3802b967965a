// Proves the confinement of the real running server, from outside it. The process bwrap started
// is found among bwrap's descendants (the one in another mount namespace), and its own view of the
// filesystem is read through /proc/<pid>/root and /proc/<pid>/mountinfo:
// - sentinel files created just now below the app's data folder and the temp folder (wherever no
//   grant covers them) must not exist in its view, nor a few of the user's own files in HOME (read, never
//   written: the check leaves nothing in HOME even if the app dies mid-check);
// - every root must be there, mounted read-only exactly when its grant is read-only.
// No cooperation from the server is needed, so a server that lies cannot pass.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_SEARCH_DEPTH } from '../../../shared/protected-names.js';
import type { LimitsProven, SandboxSelfCheck } from '../../../shared/sandbox.js';
import { reachableInside } from './bwrap-plan.js';
import type { PathIdentity } from './mount-descriptors.js';
import { BROWSER_FIX } from './private-network.js';
import { readLimit, type ResourceLimits } from './resource-limits.js';
import { pidsCgroupOf } from './server-cgroup.js';
import { isWithin, type GrantedFolder, type SandboxMount } from './sandbox-types.js';

export interface SelfCheckInput {
  /** The pid the transport spawned (bwrap). */
  pid: number;
  mounts: readonly SandboxMount[];
  /** Folders to plant a sentinel in (kept only where the sandbox should hide them). */
  sentinelDirs: readonly string[];
  /** Folders whose existing entries must be hidden (HOME): looked at, never written to. */
  hiddenDirs?: readonly string[] | undefined;
  /** What each descriptor-bound path was when it was opened: inside, the same file must be there. */
  identities?: ReadonlyMap<string, PathIdentity> | undefined;
  /** The seccomp filter was asked for: the server must run under it. */
  seccomp?: boolean | undefined;
  /** Its filter refuses socket(AF_UNIX) (seccomp-filter.ts): the detail says which. */
  denyUnixSockets?: boolean | undefined;
  /**
   * Its network: 'off' (a namespace with loopback only), 'private' (a namespace of its own that
   * pasta connects, private-network.ts), 'shared' (the host's). Off and private must be another
   * namespace than the app's: that is what makes the host's abstract Unix sockets unreachable.
   */
  network?: 'off' | 'private' | 'shared' | undefined;
  /** Shared: why it is not private (pasta missing or refused), said with the fix a browser needs. */
  networkWhy?: string | undefined;
  /** With a private network: the ports of this computer's loopback pasta forwards to it (none by default). */
  localPorts?: readonly number[] | undefined;
  /** With a list of allowed hosts: the list, and whether its rules were found in force in the server's namespace (egress/). */
  egress?: { hosts: readonly string[]; inForce: boolean } | undefined;
  /** The limits it was started with (resource-limits.ts): each must be in force. */
  limits?: ResourceLimits | undefined;
  /** Mounts were bound by path (bwrap before 0.8): the detail must not claim each is the checked folder. */
  boundByPath?: boolean | undefined;
  /** What the app set up for this server beyond its grants (a data path), said in the detail. */
  /**
   * Protected names the person left writable in a read-write grant, as `<folder>/<name>`: not bound,
   * so not in the proof, and listed in the detail as writable by their choice.
   */
  writableByChoice?: readonly string[] | undefined;
  notes?: readonly string[] | undefined;
  /** Folders revoked from the running server (a new table of its file view): each must be gone inside, unless a grant still covers it. */
  revoked?: readonly string[] | undefined;
  /** Its grants change live (its file view): the detail says so. Without one, its protection is what its start found: the detail says that too. */
  live?: boolean | undefined;
  /**
   * Its grants are served by a file view of its own (view/): not mounts, so each is proved through
   * the view itself: there, the very folder, and refusing what its mode and the rules refuse.
   */
  view?: { roots: readonly GrantedFolder[]; identityOf(path: string): PathIdentity | undefined } | undefined;
}

function childrenOf(pid: number): number[] {
  try {
    const tasks = fs.readdirSync(`/proc/${pid}/task`);
    return tasks.flatMap((task) => {
      try {
        return fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/**
 * What bind mounts (no file view) cannot do, said with every check so the badge never claims more:
 * the protected names were found by a bounded search at start (protected-paths.ts), so a
 * repository made, cloned or moved in later, or deeper than the search, is not protected, and a
 * change of grants is a restart.
 */
export const STATIC_PROTECTION = `protection found at its start (bind mounts, no file view here): repositories made or cloned after it, or deeper than ${REPO_SEARCH_DEPTH} folders, are not protected; a change of grants restarts it`;

/**
 * bwrap's descendants that live in another mount namespace than ours and than the spawned process's
 * own: the confined processes. With a file view the pid is bwrap's outer process, in the helper's
 * holder namespace (where the view is mounted on its stage): that one is not the sandbox.
 */
export function confinedProcesses(pid: number): number[] {
  const ours = fs.readlinkSync('/proc/self/ns/mnt');
  let spawned: string | undefined;
  try {
    spawned = fs.readlinkSync(`/proc/${pid}/ns/mnt`);
  } catch {
    return [];
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    try {
      const ns = fs.readlinkSync(`/proc/${next}/ns/mnt`);
      if (ns !== ours && ns !== spawned) found.push(next);
    } catch {
      // Gone, or not ours to inspect.
    }
    queue.push(...childrenOf(next));
  }
  return found;
}

function exeOf(pid: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

/** Mount points and their options, from a mountinfo file (octal escapes decoded). */
export function parseMountinfo(text: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 6) continue;
    const mountPoint = (fields[4] as string).replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
    // Later lines are mounted on top of earlier ones at the same point: the last one is seen.
    result.set(mountPoint, (fields[5] as string).split(','));
  }
  return result;
}

/**
 * The processes in the sandbox (bwrap's init, pid 1 inside, first) and the one to inspect: the
 * shallowest that lives and is no longer bwrap, which is the server itself while it runs. A session
 * can be "up" before the command runs (a 2026-07-28 client that knows the server's era sends nothing
 * first), so the check waits for the fact, within `timeoutMs`.
 *
 * Not the deepest: desktop-commander's short-lived children ended while they were read ("not in its
 * cgroup"), and a server allowed sandboxes of its own has children in namespaces of their own.
 */
async function sandboxedCommand(pid: number, timeoutMs: number): Promise<{ confined: number[]; target?: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const confined = confinedProcesses(pid);
    // Read each time: the spawned pid may still be prlimit, which execs bwrap in place.
    const bwrapExe = exeOf(pid);
    // Forked but not yet exec'd, the command is still bwrap, without its seccomp filter: under
    // load the proxy's check saw that window ("runs without its seccomp filter") and stopped the server.
    const target = confined.find((candidate) => isAlive(candidate) && (bwrapExe === undefined || exeOf(candidate) !== bwrapExe));
    if ((confined.length >= 2 && target !== undefined) || Date.now() > deadline) return { confined, target };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether a process still lives with a root to read (a zombie, or one ending, has none). */
function isAlive(pid: number): boolean {
  return fs.existsSync(`/proc/${pid}/root/`);
}

export async function selfCheck(input: SelfCheckInput, options: { timeoutMs?: number } = {}): Promise<SandboxSelfCheck> {
  // A process read mid-exit fails the check without saying anything about the sandbox: once more,
  // on the processes that live then.
  for (let attempt = 0; ; attempt++) {
    const result = await checkOnce(input, options);
    if (result.verified || attempt === 2 || !/^(cannot inspect pid|self-check failed)/.test(result.detail)) return result;
  }
}

async function checkOnce(input: SelfCheckInput, { timeoutMs = 10_000 } = {}): Promise<SandboxSelfCheck> {
  const at = Date.now();
  const { confined, target } = await sandboxedCommand(input.pid, timeoutMs);
  // A process that ends while it is read (its cgroup, its view, its limits) fails a check without
  // saying anything about the sandbox: said as such, so that the check runs again.
  const fail = (detail: string): SandboxSelfCheck => ({
    verified: false,
    at,
    detail: target !== undefined && !isAlive(target) ? `cannot inspect pid ${target} (it ended during the check: ${detail})` : detail,
  });
  if (target === undefined || confined.length < 2) return fail(`no command running in its own mount namespace below pid ${input.pid}`);
  const rootOf = (p: string) => `/proc/${target}/root${p}`;

  const planted: string[] = [];
  try {
    for (const dir of input.sentinelDirs) {
      const sentinel = path.join(dir, `.mcp-roots-sentinel-${randomBytes(6).toString('hex')}`);
      if (reachableInside(sentinel, input.mounts) || !fs.existsSync(dir)) continue;
      fs.writeFileSync(sentinel, 'outside the grants\n');
      planted.push(sentinel);
    }
    // Up to three existing entries of each hidden folder that no grant covers.
    const existing = (input.hiddenDirs ?? []).flatMap((dir) =>
      listing(dir)
        .map((name) => path.join(dir, name))
        // An entry on the way to a mount (~/projects for a granted ~/projects/a) exists inside as an empty folder.
        .filter((entry) => !reachableInside(entry, input.mounts) && !input.mounts.some((mount) => isWithin(mount.path, entry)))
        .slice(0, 3),
    );
    for (const sentinel of [...planted, ...existing]) {
      if (fs.existsSync(rootOf(sentinel))) return fail(`${sentinel} (outside the grants) is visible inside`);
    }
    if (!fs.existsSync(rootOf('/'))) return fail(`cannot inspect pid ${target} (gone, or not permitted)`);
    const mountinfo = parseMountinfo(fs.readFileSync(`/proc/${target}/mountinfo`, 'utf8'));
    const counts = { root: 0, protected: 0, program: 0, anchor: 0 };
    for (const mount of input.mounts) {
      if (mount.purpose !== 'root' && mount.purpose !== 'protected' && mount.purpose !== 'program' && mount.purpose !== 'anchor') continue;
      // Served by the view, not mounted: proved below (checkView).
      if (input.view && mount.purpose === 'root') continue;
      if (!fs.existsSync(mount.path)) continue;
      const options = mountinfo.get(mount.path);
      const what = mount.purpose === 'protected' ? 'protected path' : mount.purpose;
      if (!options) return fail(`${mount.path} (${what}) is not mounted inside`);
      if (options.includes('ro') === mount.writable) {
        return fail(`${mount.path} (${what}) is mounted ${mount.writable ? 'read-only' : 'read-write'} inside, planned ${mount.writable ? 'read-write' : 'read-only'}`);
      }
      // The very file or folder that was opened for the bind, not something a race put at its path.
      const identity = input.identities?.get(mount.path);
      if (identity) {
        const inside = fs.statSync(rootOf(mount.path));
        if (inside.dev !== identity.dev || inside.ino !== identity.ino) return fail(`${mount.path} (${what}) inside is not the folder that was checked and bound`);
      }
      counts[mount.purpose]++;
    }
    // A revoked folder: no mount left at its path, and nothing of it to see (its empty mount point may stay).
    for (const folder of input.revoked ?? []) {
      if (reachableInside(folder, input.mounts)) continue;
      if (mountinfo.has(folder)) return fail(`${folder} (revoked) is still mounted inside`);
      if (listing(rootOf(folder)).length > 0) return fail(`${folder} (revoked) still shows files inside`);
    }
    const viewed = input.view ? await checkView(target, input.view, fs.readFileSync(`/proc/${target}/mountinfo`, 'utf8')) : undefined;
    if (viewed?.failed) return fail(viewed.failed);
    const proc = mountinfo.get('/proc/sys');
    if (!proc?.includes('ro')) return fail('/proc/sys is writable inside');
    const status = fs.readFileSync(`/proc/${target}/status`, 'utf8');
    const field = (name: string) => new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(status)?.[1];
    if (field('NoNewPrivs') !== '1') return fail('the server may gain privileges (no_new_privs is not set)');
    if (input.seccomp && field('Seccomp') !== '2') return fail('the server runs without its seccomp filter');
    const limits = limitsText(input.limits, target, fs.readFileSync(`/proc/${target}/limits`, 'utf8'));
    if (limits.failed) return fail(limits.failed);
    const ownNetwork = fs.readlinkSync(`/proc/${target}/ns/net`) !== fs.readlinkSync('/proc/self/ns/net');
    if (input.network !== undefined && input.network !== 'shared' && !ownNetwork) return fail("it shares the host's network namespace, planned one of its own");
    if (input.egress && !input.egress.inForce) return fail('its allowed hosts are not in force in its network namespace (the rules are missing)');
    return {
      verified: true,
      at,
      ...(limits.proven ? { limits: limits.proven } : {}),
      // Without a seccomp filter (an architecture it lacks) nothing refuses sockets: no facts to word, the detail says it.
      ...(input.seccomp ? { proven: {
        pid: target,
        grants: viewed && input.view ? input.view.roots.length : counts.root,
        protected: counts.protected,
        view: viewed !== undefined,
        sockets: input.denyUnixSockets === false ? ('own-network' as const) : ('refused' as const),
        static: !input.live,
      } } : {}),
      detail:
        `pid ${target}: ${planted.length} sentinel(s) and ${existing.length} file(s) of HOME outside the grants not visible; ` +
        (viewed
          ? `${viewed.text}${input.writableByChoice?.length ? ` (writable by your choice: ${input.writableByChoice.join(', ')})` : ''}; `
          : `${counts.root} root(s) mounted with their grant's mode, ${input.boundByPath ? 'bound by path (bwrap before 0.8: a swap at start is NOT excluded)' : 'each the folder that was checked'}; ` +
            `${counts.protected} protected path(s) read-only${input.writableByChoice?.length ? ` (writable by your choice: ${input.writableByChoice.join(', ')})` : ''}; ${counts.anchor} folder(s) above the data folder and protected paths pinned; `) +
        `/proc/sys read-only; ${limits.text}; ${input.seccomp ? `seccomp filter on (keyrings, mount calls${input.denyUnixSockets === false ? '' : ', Unix sockets refused'})` : 'no seccomp filter on this architecture'}; ` +
        networkText(input.network, input.networkWhy, input.localPorts ?? []) +
        (input.egress ? `; ${egressText(input.egress.hosts)}` : '') +
        (input.revoked?.length ? `; ${input.revoked.length} revoked folder(s) gone` : '') +
        (input.live ? '; grants applied live (a new table of its file view)' : `; ${STATIC_PROTECTION}`) +
        (input.notes?.length ? `; ${input.notes.join('; ')}` : ''),
    };
  } catch (error) {
    return fail(`self-check failed: ${(error as Error).message}`);
  } finally {
    for (const sentinel of planted) fs.rmSync(sentinel, { force: true });
  }
}

/** How long the view may take to answer one check: a view that hangs fails the check, never the app. */
const VIEW_ANSWER_MS = 10_000;

function answered<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`its file view did not answer ${what} within ${VIEW_ANSWER_MS / 1000} s`)), VIEW_ANSWER_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A protected file name to try a write on in a read-write grant: one the person did not leave writable. */
const CANARY_NAMES = ['.mcp.json', '.npmrc', 'bunfig.toml', '.gitmodules', '.ripgreprc', 'lefthook.yml', '.pre-commit-config.yaml', '.pnpmfile.cjs'];

/**
 * Tries a change where the view must refuse it (EROFS): a missing file is created, an existing one
 * has its mode set to what it is (the view decides a write, a truncation and a change of mode alike,
 * and files open without asking it, so opening one for writing proves nothing). A change that got
 * through is undone on the host (a created file removed) and fails the check; a mode set to itself
 * changes nothing of the file.
 */
async function refusedWrite(inside: string, host: string): Promise<string | undefined> {
  let existing: fs.Stats | undefined;
  try {
    existing = fs.lstatSync(host);
  } catch {
    existing = undefined;
  }
  try {
    if (existing) {
      await answered(fsp.chmod(inside, existing.mode & 0o7777), `a change of ${host}`);
      return `${host} could be changed inside`;
    }
    const handle = await answered(fsp.open(inside, 'wx'), `a write of ${host}`);
    await handle.close();
    fs.rmSync(host, { force: true });
    return `${host} could be created inside`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return undefined;
    return code === undefined ? (error as Error).message : `a change of ${host} inside failed with ${code}, not refused as read-only`;
  }
}

/**
 * The grants of a server with a file view, proved through the view from outside: the sandbox's root
 * is the view; each grant is there and is the very folder that was checked (the view reports its
 * inode); a read-only one refuses a new file; a read-write one takes a change of its own times (a
 * no-op) and refuses a protected name. Nothing is left in the grant, whatever happens.
 */
async function checkView(target: number, view: NonNullable<SelfCheckInput['view']>, mountinfo: string): Promise<{ failed?: string; text: string }> {
  const rootLine = mountinfo.split('\n').filter((line) => line.split(' ')[4] === '/').at(-1) ?? '';
  const fstype = rootLine.split(' - ')[1]?.split(' ')[0] ?? '';
  if (!fstype.startsWith('fuse')) return { failed: `its root is ${fstype || 'unknown'}, not its file view`, text: '' };
  let readOnly = 0;
  let writable = 0;
  for (const root of view.roots) {
    const identity = view.identityOf(root.path);
    if (!identity) continue;
    const inside = `/proc/${target}/root${root.path}`;
    let stat: fs.Stats;
    try {
      stat = await answered(fsp.lstat(inside), `a look at ${root.path}`);
    } catch (error) {
      return { failed: `${root.path} (root) is not there inside (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, text: '' };
    }
    if (!stat.isDirectory() || stat.ino !== identity.ino) return { failed: `${root.path} (root) inside is not the folder that was checked`, text: '' };
    if (root.mode === 'read-only') {
      const canary = `.mcp-roots-canary-${randomBytes(6).toString('hex')}`;
      const failed = await refusedWrite(path.join(inside, canary), path.join(root.path, canary));
      if (failed) return { failed: `${root.path} is read-only, but ${failed}`, text: '' };
      readOnly++;
      continue;
    }
    try {
      await answered(fsp.utimes(inside, stat.atime, stat.mtime), `a change of ${root.path}`);
    } catch (error) {
      return { failed: `${root.path} is read-write, but inside it refused a change (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, text: '' };
    }
    const name = CANARY_NAMES.find((candidate) => !(root.writableByChoice ?? []).includes(candidate));
    if (name) {
      const failed = await refusedWrite(path.join(inside, name), path.join(root.path, name));
      if (failed) return { failed: `${path.join(root.path, name)} is protected, but ${failed}`, text: '' };
    }
    writable++;
  }
  return {
    text:
      `${view.roots.length} grant(s) through its file view, each the folder that was checked (${readOnly} read-only: a new file refused; ${writable} read-write: writable, a protected name refused); ` +
      'protected names refused at any depth and whenever they appear, nothing placed in your folders',
  };
}

/** The server's network in words, with what it means for Unix sockets (checked above: its namespace). */
function networkText(network: SelfCheckInput['network'], why: string | undefined, localPorts: readonly number[]): string {
  const own = "a network namespace of its own (checked), so the host's abstract Unix sockets (X11, D-Bus) are unreachable and Unix sockets are allowed";
  if (network === 'off') return `network off: ${own}`;
  // pasta's settings, not a connection tried from inside: said as settings (sandbox-network.test.ts tries them).
  const loopback = localPorts.length === 0 ? "this computer's loopback closed to it" : `this computer's loopback closed to it except port(s) ${localPorts.join(', ')}, opened by you`;
  if (network === 'private') return `network on through pasta: ${own}; ${loopback} and nothing reaches it from outside (pasta's settings)`;
  if (network === 'shared') return `network shared with the host, so Unix sockets are refused and this computer's loopback open to it (${why ?? 'no private network'}): a browser cannot start here; to fix it, ${BROWSER_FIX}`;
  return 'network not described';
}

/** Its allowed hosts in words: what the rules found in its namespace hold it to. */
function egressText(hosts: readonly string[]): string {
  const shown = hosts.length > 5 ? `${hosts.slice(0, 5).join(', ')} and ${hosts.length - 5} more` : hosts.join(', ');
  const list = hosts.length === 0 ? 'no host at all (an empty list)' : `its allowed hosts only (${shown})`;
  return `outbound to ${list}: nftables rules in its namespace (checked) refuse every other address, names answered by the app`;
}

/** Whether the planned limits are in force, read from the running process, and their words for the detail. */
function limitsText(limits: ResourceLimits | undefined, target: number, procLimits: string): { text: string; failed?: string; proven?: LimitsProven } {
  if (!limits?.prlimit) return { text: 'tasks and memory not limited (no prlimit)' };
  const mib = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MiB`;
  const data = readLimit(procLimits, 'Max data size');
  if (data !== limits.dataBytes) return { text: '', failed: `its data limit is ${data ?? 'unlimited'}, planned ${limits.dataBytes}` };
  const files = readLimit(procLimits, 'Max open files');
  if (files !== limits.files) return { text: '', failed: `its open-file limit is ${files ?? 'unlimited'}, planned ${limits.files}` };
  const tmp = tmpfsBytes(`/proc/${target}/root/tmp`);
  if (tmp !== limits.tmpBytes) return { text: '', failed: `its /tmp holds ${tmp ?? 'an unknown size'}, planned ${limits.tmpBytes}` };
  const parts = [`memory ${mib(data)} per process`, `open files ${files} per process`, `/tmp and TMPDIR ${mib(tmp)} (tmpfs)`, 'private HOME on disk NOT capped (no per-folder quota without privileges)'];
  if (limits.cgroup) {
    const cgroup = limits.cgroup;
    if (pidsCgroupOf(target, cgroup.version) !== cgroup.pids) return { text: '', failed: `it is not in its cgroup ${cgroup.pids}` };
    const max = readNumber(path.join(cgroup.pids, 'pids.max'));
    if (max !== limits.taskLimit) return { text: '', failed: `its cgroup allows ${max ?? 'unlimited'} tasks, planned ${limits.taskLimit}` };
    parts.unshift(`tasks ${max} (its own cgroup v${cgroup.version})`);
    if (cgroup.memory) parts.splice(2, 0, `memory ${mib(limits.dataBytes)} for the whole server (cgroup)`);
  } else if (limits.tasks === undefined) {
    parts.unshift('tasks NOT limited (the kernel does not limit root’s, and no cgroup could be made)');
  } else {
    const tasks = readLimit(procLimits, 'Max processes');
    if (tasks !== limits.tasks) return { text: '', failed: `its task limit is ${tasks ?? 'unlimited'}, planned ${limits.tasks}` };
    parts.unshift(`tasks ${tasks} for this user (${limits.taskLimit} above the count at start)`);
  }
  // Reached here, memory, open files and /tmp were each read as planned; tasks only with a cgroup or an rlimit.
  return { text: parts.join('; '), proven: { tasks: limits.cgroup !== undefined || limits.tasks !== undefined, memoryMiB: true, tmpMiB: true, files: true } };
}

/** A tmpfs's size as statfs reports it, or undefined. */
function tmpfsBytes(dir: string): number | undefined {
  try {
    const stat = fs.statfsSync(dir);
    return stat.blocks * stat.bsize;
  } catch {
    return undefined;
  }
}

function readNumber(file: string): number | undefined {
  try {
    const value = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function listing(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/**
 * Where the check looks by default: sentinels in the app's data folder and the temp folder; HOME's
 * own files. The sentinels go one level down, in folders nobody watches: every proxy watches the
 * data folder (for the registry) and, when its roots lie under it, the temp folder, and a sentinel
 * planted there at each restart woke all of them for nothing (~0.15 ms of CPU each per file). A file
 * in a folder below is hidden exactly when the folder above is: no sandbox plan binds one without
 * the other.
 */
export function defaultCheckedDirs(dataDir: string): Pick<SelfCheckInput, 'sentinelDirs' | 'hiddenDirs'> {
  const below = path.join(dataDir, 'sandbox');
  fs.mkdirSync(below, { recursive: true });
  return { sentinelDirs: [below, ownTempFolder()], hiddenDirs: [os.homedir()] };
}

let ownTemp: string | undefined;

/** This process's own folder in the temp folder, made at its first check, removed when it exits. */
function ownTempFolder(): string {
  if (ownTemp !== undefined && fs.existsSync(ownTemp)) return ownTemp;
  const made = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), '.mcp-roots-check-')));
  process.once('exit', () => fs.rmSync(made, { recursive: true, force: true }));
  ownTemp = made;
  return made;
}
