/**
 * The OS sandbox for one stdio MCP server: the module's one entry point.
 *
 *   const confined = await confineStdio(config, { serverId, roots, dataDir, network });
 *   spawn confined.config (e.g. with buildTransport); after `initialize`:
 *   const check = await confined.selfCheck(transport.pid);   // { verified, at, detail }
 *
 * - `roots` are the server's EFFECTIVE roots (granted AND accessible AND sharing on), canonical
 *   host paths, each with its grant's mode. With a file view (view/), `live.apply` changes them in
 *   the running server (a new table); with bind mounts they are fixed at exec: call confineStdio
 *   again and restart the server (the roots-change policy decides which).
 * - Linux with working bubblewrap: `config` runs the server under bwrap (bwrap-plan.ts says what it
 *   sees and why); macOS: under sandbox-exec with a generated profile (seatbelt-profile.ts,
 *   untested here); anywhere else, or when the probe failed: `config` is the server's own, unchanged,
 *   and `enforcement` says why it is advisory.
 * - HOME and TMPDIR are private and persistent: `<dataDir>/sandbox/servers/<serverId>/{home,tmp}`.
 * - `npx`/`uvx` servers get their package prepared outside the sandbox first (package-launch.ts).
 * - Throws SandboxSetupError (with a code the UI translates) when the server cannot be prepared:
 *   its command is not found, uv is missing for uvx, a package install failed. The caller shows
 *   it and offers "Run without sandbox"; it never falls back to an unconfined start by itself.
 * - `stderrBlocked(lines)` reads the server's stderr for a failure caused by the sandbox
 *   (blocked-path.ts), so the UI can offer "Grant this folder".
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { StdioTransportConfig } from '../../../shared/domain.js';
import type { SandboxEnforcement, SandboxSelfCheck } from '../../../shared/sandbox.js';
import type { ServerLimits } from '../../../shared/server-limits.js';
import { findBlockedPath, type BlockedPath } from './blocked-path.js';
import { planBwrap } from './bwrap-plan.js';
import { hostLayout, type HostLayout } from './host-layout.js';
import { launchEnvironment } from './launch-environment.js';
import { watchLimits, type LimitHit } from './limit-watch.js';
import { preparePackageLaunch, type BuildStep, type PackageLaunch } from './package-launch.js';
import { runConfinedOnce } from './run-confined.js';
import { PlaceholderJournal } from './placeholder-journal.js';
import { identityOf, openMountDescriptors, type OpenedDescriptors, type PathIdentity } from './mount-descriptors.js';
import { locateProgram } from './program-location.js';
import { linkHomeFiles } from './version-manager-shims.js';
import { attachPrivateNetwork, NAMESPACE_KEEPER, writePrivateResolvConf, type PrivateNetwork } from './private-network.js';
import { claimPaths, protectRoots, releasePlaceholders, type Placeholder } from './protected-paths.js';
import { resourceLimits } from './resource-limits.js';
import { removeCgroup } from './server-cgroup.js';
import { sandboxSupport } from './probe-cache.js';
import type { SandboxSupport } from './sandbox-probe.js';
import { isWithin, SandboxSetupError, type GrantedFolder, type SandboxMount } from './sandbox-types.js';
import { seccompFilter, type SeccompRules } from './seccomp-filter.js';
import { seatbeltProfile } from './seatbelt-profile.js';
import { sensitiveFolder } from './sensitive-folders.js';
import { defaultCheckedDirs, selfCheck } from './self-check.js';
import { confineWithView, type ViewConfined } from './view/view-confine.js';
import { helperBinary } from './view/helper-binary.js';
import { EgressGuard } from './egress/egress-guard.js';
import { findNft } from './egress/netns-nft.js';
import { NetworkRecord, networkRecordFile } from './egress/network-record.js';
import type { FileRecordBounds } from '../../../shared/file-record.js';
import { FileRecord } from './audit/file-record.js';
import { viewRules } from './view/view-rules.js';
import type { LiveRestartReason } from '../../../shared/activity-event.js';

/**
 * Who each path the plan binds is now: the spawn binds it only if it is still the same
 * (mount-descriptors.ts). A path gone or turned into a symlink since it was planned is refused.
 */
function identify(paths: readonly string[]): { path: string; identity: PathIdentity }[] {
  return paths.map((p) => {
    const identity = identityOf(p);
    if (!identity) throw new SandboxSetupError('folder-changed', `${p} is gone or became a symlink while its sandbox was planned.`);
    return { path: p, identity };
  });
}

/** What the self-check says of a server allowed sandboxes of its own: a choice, not a restriction it proves. */
export const OWN_SANDBOXES_NOTE = 'user namespaces allowed inside, by your choice (its own sandboxes: a browser needs them), mount calls still refused';

export interface ConfineOptions {
  /** Names the server's private folder; any characters (made safe for a folder name). */
  serverId: string;
  /** The server's name as the person knows it, for messages (default: serverId). */
  serverName?: string | undefined;
  /** Record what it does in its grants (with a file view: audit/file-record.ts). Default on; the bench measures it off. */
  recordFiles?: boolean | undefined;
  /** The record's bounds now (the settings, read at each trim); default: RECORD_BOUNDS' defaults. */
  recordBounds?: (() => FileRecordBounds) | undefined;
  roots: readonly GrantedFolder[];
  /** The app's data folder (the registry's config dir): private folders and packages live below it. */
  dataDir: string;
  network: boolean;
  /**
   * Let it make sandboxes of its own (user namespaces) inside this one: a browser's (Chromium's)
   * own sandbox needs them. Off by default; mounts, keyrings, bpf and netfilter stay refused by the
   * seccomp filter either way (seccomp-filter.ts), so what it gains is namespaces to confine itself.
   */
  ownSandboxes?: boolean | undefined;
  /** With the network on: the ports of this computer's loopback it may reach (none by default; private-network.ts). */
  localPorts?: readonly number[] | undefined;
  /** With the network on: the only hosts it may reach (shared/host-patterns.ts; egress/). Absent: any host. */
  allowHosts?: readonly string[] | undefined;
  /** Where a refused destination is told, once each (the proxy's stderr, the app's activity log). Default: this process's stderr. */
  onNetworkRefused?: ((line: string) => void) | undefined;
  /** The server's own limits (server-limits.ts); the defaults where absent. */
  limits?: ServerLimits | undefined;
  /** Override the private folders (default `<dataDir>/sandbox/servers/<serverId>/{home,tmp}`). */
  home?: string | undefined;
  tmp?: string | undefined;
  /** Default: this process's probe (kept for the boot, probe-cache.ts). Tests pass a probe made with another PATH or platform. */
  support?: SandboxSupport | undefined;
  layout?: HostLayout | undefined;
}

export interface ConfinedStdio {
  /** What to spawn. Unchanged from the input when enforcement.kind is 'none'. */
  config: StdioTransportConfig;
  enforcement: SandboxEnforcement;
  /** Every path the server can reach (empty when not enforced). */
  mounts: SandboxMount[];
  /** Set for npx/uvx servers: where their package was found or installed. */
  package?: PackageLaunch | undefined;
  /**
   * Opens what bwrap binds from descriptors (each checked to be what the plan saw) and the seccomp
   * filter, for one spawn: pass `fds` as the child's fds 3, 4, … and close them once it runs.
   * Throws SandboxSetupError('folder-changed') when a folder was swapped since the plan.
   */
  openDescriptors(): OpenedDescriptors;
  /**
   * This start is over: the placeholders made for its missing protected names are removed once no
   * sandbox holds them (protected-paths.ts), then its cgroup if empty. Resolves when they are.
   */
  release(): Promise<void>;
  /** Checks the running server (pass the spawned pid, i.e. bwrap's) from outside. */
  selfCheck(pid: number | null | undefined): Promise<SandboxSelfCheck>;
  /**
   * The process that is bwrap for a spawned pid: the pid itself, or with a file view the helper's
   * holder (pasta joins its network namespace; the limits are on it). Undefined once it is gone.
   */
  sandboxPid(pid: number): Promise<number | undefined>;
  /** Tells, once per limit, when the running server (the spawned pid) reaches one of its limits; returns the stop. */
  watchLimits(pid: number | null | undefined, onHit: (hit: LimitHit) => void): () => void;
  /** The first stderr line showing the sandbox in the server's way, if any. */
  stderrBlocked(lines: readonly string[]): BlockedPath | undefined;
  /** Whether its grants can change while it runs, and how (or why not: then a change restarts it). */
  live: LiveGrants;
  /** Set when its filter refuses Unix sockets (network on, shared with the host): why, for a failure's words. */
  unixSocketsRefused?: string | undefined;
  /** With the network on: this computer's loopback closed but the ports opened for it (pasta), or open (shared network). */
  loopback?: 'closed' | 'open' | undefined;
  /** With a list of allowed hosts: the list, changed live (the running server's rules follow), and the proof they hold. */
  egress?: { hosts(): string[]; setHosts(hosts: readonly string[]): Promise<void>; verify(): Promise<boolean> } | undefined;
}

export type LiveGrants =
  | {
      available: true;
      /** Changes the running server's (pid: the spawned one) roots, then proves its sandbox again. */
      apply(pid: number, roots: readonly GrantedFolder[]): Promise<LiveChange>;
    }
  | { available: false; reason: string };

export type LiveChange =
  | { kind: 'applied'; check: SandboxSelfCheck; added: string[]; revoked: string[]; ms: number }
  | { kind: 'unchanged' }
  /** It must be restarted instead; `reason` in the activity log's words ("it held … open under …"). */
  | { kind: 'restart'; reason: LiveRestartReason };

const hostFacts = {
  exists: (p: string) => fs.existsSync(p),
  isDirectory: (p: string) => {
    try {
      return fs.statSync(p).isDirectory();
    } catch {
      return false;
    }
  },
};

/** The server's private folders, created if missing (0700: other local users have no business there). */
export function privateFolders(dataDir: string, serverId: string): { home: string; tmp: string; stage: string } {
  const base = path.join(dataDir, 'sandbox', 'servers', serverId.replace(/[^a-zA-Z0-9._-]/g, '_'));
  return { home: path.join(base, 'home'), tmp: path.join(base, 'tmp'), stage: path.join(base, 'stage') };
}

function ensureFolder(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The filter as a file below the data folder (no server can reach it), written once per content. */
function seccompFile(dataDir: string, filter: Buffer): string {
  const file = path.join(dataDir, 'sandbox', `seccomp-${createHash('sha256').update(filter).digest('hex').slice(0, 16)}.bpf`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, filter, { mode: 0o600 });
    fs.renameSync(partial, file);
  }
  return file;
}

function advisory(config: StdioTransportConfig, enforcement: SandboxEnforcement): ConfinedStdio {
  return {
    config,
    enforcement,
    mounts: [],
    openDescriptors: () => ({ fds: [], close: () => undefined }),
    sandboxPid: async (pid) => pid,
    selfCheck: async () => ({ verified: false, at: Date.now(), detail: `not confined: ${enforcement.reason}` }),
    watchLimits: () => () => undefined,
    release: async () => undefined,
    stderrBlocked: () => undefined,
    live: { available: false, reason: `not confined: ${enforcement.reason}` },
  };
}

/**
 * A package's build step (package-launch.ts), in the sandbox a server would get with one read-write
 * grant, its staging folder, and the network on; a private HOME and temp folder beside it, removed after.
 */
async function buildConfined(step: BuildStep, options: ConfineOptions & { support: SandboxSupport }): Promise<void> {
  const home = fs.mkdtempSync(`${step.dir}.home-`);
  const tmp = fs.mkdtempSync(`${step.dir}.tmp-`);
  try {
    const confined = await confineStdio(
      { type: 'stdio', command: step.command, args: step.args, env: { ...step.env, npm_config_cache: path.join(home, '.npm') }, cwd: step.dir },
      // The install's own network (the registry), not the server's list of allowed hosts.
      { ...options, serverId: `build-${path.basename(step.dir)}`, roots: [{ path: step.dir, mode: 'read-write' }], network: true, allowHosts: undefined, home, tmp },
    );
    if (confined.enforcement.kind === 'none') throw new SandboxSetupError('package-install-failed', `its build step cannot run confined here (${confined.enforcement.reason}), so it did not run.`);
    fs.appendFileSync(step.log, `$ ${path.basename(step.command)} ${step.args.join(' ')}   (confined: only ${step.dir} writable, network on)\n`);
    const result = await runConfinedOnce(confined, step.log);
    if (result.code !== 0) {
      const how = result.signal ? `was stopped (${result.signal})` : `failed (exit ${result.code})`;
      throw new SandboxSetupError('package-install-failed', `its build step ${how} in its sandbox: ${result.tail || 'it printed nothing'} (the whole output: ${step.log})`);
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A list of allowed hosts is enforced in the server's own network namespace (egress/), or the server
 * is not started: never with more than the list. Needs pasta (a namespace of its own), nftables and
 * the sandbox helper (which runs nft there with only CAP_NET_ADMIN).
 */
async function guardEgress(options: ConfineOptions, support: SandboxSupport, pasta: string | undefined, dataDir: string): Promise<NonNullable<PrivateNetwork['egress']>> {
  const refuse = (why: string) => new SandboxSetupError('network-policy-unavailable', `its list of allowed hosts cannot be enforced here (${why}), so it was not started; turn its network off, allow any host (mcp-roots servers set NAME --allow-any-host), or fix that`);
  if (support.kind !== 'bwrap') throw refuse('allowed hosts are enforced on Linux only');
  if (!pasta) throw refuse(support.privateNetwork?.reason ?? 'no network namespace of its own');
  const nft = findNft();
  if (!nft) throw refuse('nftables is not installed: Debian and Ubuntu package "nftables"');
  const helper = helperBinary();
  if (!helper) throw refuse('the sandbox helper was not built: install a C compiler and run npm run build:native');
  const guard = await EgressGuard.start({
    serverName: options.serverName ?? options.serverId,
    hosts: options.allowHosts ?? [],
    helper,
    nft,
    record: new NetworkRecord(networkRecordFile(dataDir, options.serverId)),
    onRefused: options.onNetworkRefused ?? ((line) => process.stderr.write(`mcp-roots: ${line}\n`)),
  });
  return { guard, helper, nft };
}

export async function confineStdio(config: StdioTransportConfig, options: ConfineOptions): Promise<ConfinedStdio> {
  const support = options.support ?? (await sandboxSupport(options.dataDir));
  const enforcement: SandboxEnforcement = { kind: support.kind, reasonCode: support.reasonCode, reason: support.reason };
  if (support.kind === 'none' || !support.launcher) return advisory(config, enforcement);

  const defaults = privateFolders(options.dataDir, options.serverId);
  for (const dir of [options.home ?? defaults.home, options.tmp ?? defaults.tmp]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Canonical paths: mounts and profiles name real folders (macOS's /var is /private/var).
  const home = fs.realpathSync(options.home ?? defaults.home);
  const tmp = fs.realpathSync(options.tmp ?? defaults.tmp);
  const dataDir = fs.realpathSync(options.dataDir);

  // The environment the server gets today: the SDK's defaults (PATH from the app) under its own.
  const pathEnv = config.env.PATH ?? process.env.PATH;
  const pkg = await preparePackageLaunch({
    command: config.command,
    args: config.args,
    cwd: config.cwd,
    env: { ...process.env, PATH: pathEnv },
    dataDir,
    build: (step) => buildConfined(step, { ...options, dataDir, support }),
  });
  // What the server can write may name nothing else to bind (a planted node_modules link, a shebang).
  const roots = options.roots.filter((root) => identityOf(root.path)?.directory === true);
  const writable = [...roots.filter((root) => root.mode === 'read-write').map((root) => root.path), home, tmp];
  const program = locateProgram({
    command: pkg?.command ?? config.command,
    args: pkg?.args ?? config.args,
    cwd: config.cwd,
    pathEnv,
    serverWritable: (p) => writable.some((area) => isWithin(p, area)),
    visibleInside: (p) => roots.some((root) => isWithin(p, root.path)),
  });
  const programPaths = pkg ? [...program.paths, pkg.packageDir] : program.paths;
  const launch = launchEnvironment({ env: config.env, pathEnv, packageDir: pkg?.packageDir, programPaths, home, versionManagers: program.versionManagers });
  for (const manager of program.versionManagers) linkHomeFiles(home, manager.homeFiles);
  const serverEnv = { ...config.env, ...launch.env };
  const notes = [
    ...launch.notes,
    ...(pkg?.built?.length ? [`its package's build step (${pkg.built.join(', ')}) ran once, at install, in a sandbox of its own: the network on, only the package's folder writable`] : []),
    ...(options.ownSandboxes ? [OWN_SANDBOXES_NOTE] : []),
  ];

  let identities = new Map<string, PathIdentity>();
  const placeholders: Placeholder[] = [];
  let releaseHeld: (list: readonly Placeholder[]) => Promise<void> = releasePlaceholders;
  /** This start's claim on the protected paths it plans now (protected-paths.ts claimPaths), ended by release(). */
  let unclaim: () => void = () => undefined;
  // A network-on server gets a namespace of its own where pasta works here (private-network.ts).
  const pasta = support.kind === 'bwrap' && options.network ? support.privateNetwork?.pasta : undefined;
  const guard = options.network && options.allowHosts !== undefined ? await guardEgress(options, support, pasta, dataDir) : undefined;
  const privateNetwork: PrivateNetwork | undefined = pasta ? { pasta, localPorts: options.localPorts ?? [], egress: guard } : undefined;
  const filterRules: SeccompRules = { denyUnixSockets: options.network && pasta === undefined };
  const limits = resourceLimits({ settings: options.limits, serverKey: support.kind === 'bwrap' ? options.serverId : undefined });
  let spawn: { command: string; args: string[]; env: Record<string, string> };
  let mounts: () => SandboxMount[];
  let live: LiveGrants = { available: false, reason: support.kind === 'bwrap' ? 'not probed' : 'grants reach a running server only on Linux' };
  let openDescriptors: () => OpenedDescriptors = () => ({ fds: [], close: () => undefined });
  /** Set where the server sees its grants through a file view of its own (view/view-confine.ts). */
  let viewed: ViewConfined | undefined;
  /** The record of what it does in its grants: only a view sees each operation. */
  let fileRecord: FileRecord | undefined;
  const filter = support.kind === 'bwrap' ? seccompFilter(filterRules) : undefined;
  // What bwrap's plan takes whatever way the grants reach the server (the file view, or bind mounts).
  const planned = {
    bwrap: support.launcher as string,
    disableUserns: support.disableUserns && !options.ownSandboxes,
    // Both came with bwrap 0.8: the probe's fallback for an older one is also a plan bound by path.
    bindFromDescriptors: support.disableUserns,
    layout: options.layout ?? hostLayout(),
    command: program.command,
    args: program.args,
    env: serverEnv,
    cwd: config.cwd,
    programPaths,
    programLinks: program.links,
    roots,
    home,
    tmp,
    dataDir,
    network: options.network,
    seccomp: filter !== undefined,
    limits,
    privateNetwork: pasta !== undefined,
    // Its DNS through pasta: the host's resolver may be on a loopback it cannot reach (private-network.ts).
    resolvConf: pasta ? writePrivateResolvConf(dataDir, guard !== undefined) : undefined,
  };
  if (support.kind === 'bwrap' && support.view?.available) {
    // The view makes no placeholders; those a process without it (or an older version) left when
    // killed are still this process's to remove (placeholder-journal.ts).
    PlaceholderJournal.for(dataDir);
    const stage = fs.realpathSync(ensureFolder(defaults.stage));
    // What it does in its grants, as its view reports it (audit/file-record.ts); a build step has none.
    const record = options.serverId.startsWith('build-') || options.recordFiles === false ? undefined : new FileRecord(dataDir, options.serverId, options.recordBounds);
    fileRecord = record;
    const plan = planBwrap({ ...planned, view: { stage, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 } });
    const described = identify(plan.descriptors);
    identities = new Map(described.map((entry) => [entry.path, entry.identity]));
    viewed = confineWithView({
      view: support.view,
      plan,
      stage,
      roots,
      rules: viewRules(fs.realpathSync(os.homedir())),
      dataDir,
      tmp,
      limits,
      filterFile: filter ? seccompFile(dataDir, filter) : undefined,
      network: privateNetwork,
      bound: described,
      onAudit: record ? (events, dropped) => record.add(events, dropped) : undefined,
    });
    spawn = viewed.spawn;
    openDescriptors = viewed.openDescriptors;
    const view = viewed;
    mounts = () => view.mounts();
  } else if (support.kind === 'bwrap') {
    // Unix sockets are refused where they could reach outside: with the host's network namespace
    // shared (network on, no pasta), abstract names (X11, D-Bus, the Secret Service) are one
    // socket() away. A server with network off, or on through pasta, has a namespace of its own,
    // where abstract names are its own: there Chromium (its singleton socket, its zygote) and
    // language servers get them.
    // Missing protected names get empty placeholders first, so that they are held like the rest; the
    // same for every live change (protected-paths.ts), each remembered until this start is released.
    // Journaled, so that a process killed outright leaves nothing for good (placeholder-journal.ts).
    const journal = PlaceholderJournal.for(dataDir);
    releaseHeld = (list) => journal.release(list);
    const protectedFor = (list: readonly GrantedFolder[]) => {
      const { paths, made } = protectRoots(list, os.homedir(), placeholders, (at) => journal.adopt(at));
      placeholders.push(...made);
      journal.add(made);
      // The newest set replaces this start's claim: a live change's revoke lets go of what it left.
      const previous = unclaim;
      unclaim = claimPaths(paths);
      previous();
      return paths;
    };
    const startProtected = protectedFor(roots);
    const plan = planBwrap({ ...planned, protectedPaths: startProtected });
    const described = identify(plan.descriptors);
    identities = new Map(described.map((entry) => [entry.path, entry.identity]));
    const filterFile = filter ? seccompFile(dataDir, filter) : undefined;
    const blockFd = plan.blockFd;
    openDescriptors = () => {
      const seccompFd = filterFile ? [fs.openSync(filterFile, 'r')] : [];
      const opened = openMountDescriptors(described, seccompFd);
      if (blockFd === undefined || !privateNetwork) return opened;
      // bwrap's --block-fd follows the mounts' and the filter's descriptors.
      return { ...opened, pipes: 1, whenSpawned: ([block], pid) => attachPrivateNetwork(privateNetwork, pid, block as Writable) };
    };
    // A private network: unshare holds its namespaces in front (prlimit and bwrap exec in its place).
    spawn = pasta ? { ...plan, command: NAMESPACE_KEEPER[0], args: [...NAMESPACE_KEEPER.slice(1), plan.command, ...plan.args] } : plan;
    // Bind mounts are fixed when bwrap starts: without a file view, a change of grants is a new start
    // (the roots-change policy restarts it, waiting for its calls). Live mounts made by a shell in a
    // namespace of their own did exist; their change, a path looked up twice in a folder the server
    // writes, was a way out (issue #31), so the view is the one live mechanism.
    live = { available: false, reason: `it sees its grants through bind mounts, fixed at its start (no file view here: ${support.view?.available === false ? support.view.reason : 'not probed'})` };
    mounts = () => plan.mounts;
  } else {
    const profile = seatbeltProfile({ programPaths, roots, home, tmp, dataDir, network: options.network, userHome: os.homedir() });
    spawn = { command: support.launcher, args: ['-p', profile, program.command, ...program.args], env: { ...serverEnv, HOME: home, TMPDIR: tmp } };
    mounts = () => [];
  }

  const confined: StdioTransportConfig = { type: 'stdio', command: spawn.command, args: spawn.args, env: spawn.env, ...(config.cwd ? { cwd: config.cwd } : {}) };
  // The roots the sandbox holds now: those it started with, then each live change's.
  let heldRoots: readonly GrantedFolder[] = roots;
  const check = async (spawned: number, revoked: readonly string[] = []) => {
    // With a view the spawned pid is the helper's; bwrap runs in its holder, one below. A pid this
    // start did not spawn is checked as it is: what it shows decides.
    const pid = (viewed ? await viewed.holderOf(spawned) : undefined) ?? spawned;
    return selfCheck({
      pid,
      mounts: mounts(),
      identities,
      seccomp: spawn.args.includes('--seccomp'),
      denyUnixSockets: filterRules.denyUnixSockets,
      network: !options.network ? 'off' : pasta ? 'private' : 'shared',
      networkWhy: support.kind === 'bwrap' && options.network && !pasta ? support.privateNetwork?.reason : undefined,
      localPorts: privateNetwork?.localPorts,
      egress: guard ? { hosts: guard.guard.hosts, inForce: await guard.guard.verify() } : undefined,
      limits: support.kind === 'bwrap' ? limits : undefined,
      boundByPath: support.kind === 'bwrap' && !support.disableUserns,
      writableByChoice: heldRoots.flatMap((root) => (root.mode === 'read-write' ? (root.writableByChoice ?? []).map((name) => path.join(root.path, name)) : [])),
      notes,
      revoked,
      live: viewed !== undefined,
      view: viewed ? { roots: heldRoots, identityOf } : undefined,
      ...defaultCheckedDirs(dataDir),
    });
  };
  // One change and its proof at a time, and every other proof (its start's, a new list of hosts')
  // in turn with them: a proof must be of the table it follows. A start check that still held a
  // folder a live revoke had just taken out found it gone and stopped the server as unverified.
  let chain: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };
  if (viewed) {
    const view = viewed;
    const applyAndProve = async (pid: number, wanted: readonly GrantedFolder[]): Promise<LiveChange> => {
      const outcome = await view.apply(pid, wanted);
      if (outcome.kind !== 'applied') return outcome;
      heldRoots = view.roots();
      const proof = await check(pid, outcome.revoked);
      if (!proof.verified) return { kind: 'restart', reason: { why: 'unverified', detail: proof.detail } };
      return { kind: 'applied', check: proof, added: outcome.added, revoked: outcome.revoked, ms: outcome.ms };
    };
    live = {
      available: true,
      apply: (pid, wanted) => inTurn(() => applyAndProve(pid, wanted)),
    };
  }
  return {
    config: confined,
    enforcement,
    get mounts() {
      return mounts();
    },
    package: pkg,
    openDescriptors,
    unixSocketsRefused: filterRules.denyUnixSockets && support.kind === 'bwrap' ? (support.privateNetwork?.reason ?? 'no private network was probed') : undefined,
    loopback: !options.network ? undefined : privateNetwork ? 'closed' : 'open',
    egress: guard && { hosts: () => guard.guard.hosts, setHosts: (hosts) => guard.guard.setHosts(hosts), verify: () => guard.guard.verify() },
    sandboxPid: async (pid) => (viewed ? viewed.holderOf(pid) : pid),
    selfCheck: async (pid) => {
      if (!pid) return { verified: false, at: Date.now(), detail: 'the server is not running' };
      if (support.kind !== 'bwrap') return { verified: false, at: Date.now(), detail: 'no self-check for Seatbelt yet (macOS is untested)' };
      return inTurn(() => check(pid));
    },
    live,
    release: async () => {
      await guard?.guard.stop();
      await fileRecord?.flush();
      unclaim();
      await releaseHeld(placeholders);
      removeCgroup(limits.cgroup);
    },
    watchLimits: (pid, onHit) => {
      if (support.kind !== 'bwrap' || !pid) return () => undefined;
      if (!viewed) return watchLimits(pid, limits, onHit);
      // With a view the limits are on bwrap, in the helper's holder: watched once it is known.
      let stop: (() => void) | undefined;
      let stopped = false;
      void viewed.holderOf(pid).then((holder) => {
        if (holder !== undefined && !stopped) stop = watchLimits(holder, limits, onHit);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
    stderrBlocked: (lines) => {
      const found = findBlockedPath(lines, mounts(), hostFacts);
      // The folder comes from the server's own output: say what granting it would expose.
      return found && { ...found, sensitive: sensitiveFolder(found.folder, { home: os.homedir(), dataDir }) };
    },
  };
}
