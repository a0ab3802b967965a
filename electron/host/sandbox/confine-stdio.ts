/**
 * The OS sandbox for one stdio MCP server: the module's one entry point.
 *
 *   const confined = await confineStdio(config, { serverId, roots, dataDir, network });
 *   spawn confined.config (e.g. with buildTransport); after `initialize`:
 *   const check = await confined.selfCheck(transport.pid);   // { verified, at, detail }
 *
 * - `roots` are the server's EFFECTIVE roots (granted AND accessible AND sharing on), canonical
 *   host paths, each with its grant's mode. Mounts are fixed at exec: when they change, call
 *   confineStdio again and restart the server (the roots-change policy decides when).
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
import fs from 'node:fs';
import path from 'node:path';
import type { StdioTransportConfig } from '../../../shared/domain.js';
import type { SandboxEnforcement, SandboxSelfCheck } from '../../../shared/sandbox.js';
import { findBlockedPath, type BlockedPath } from './blocked-path.js';
import { planBwrap } from './bwrap-plan.js';
import { hostLayout, type HostLayout } from './host-layout.js';
import { preparePackageLaunch, type PackageLaunch } from './package-launch.js';
import { locateProgram } from './program-location.js';
import { sandboxSupport } from './probe-cache.js';
import type { SandboxSupport } from './sandbox-probe.js';
import type { GrantedFolder, SandboxMount } from './sandbox-types.js';
import { seatbeltProfile } from './seatbelt-profile.js';
import { defaultCheckedDirs, selfCheck } from './self-check.js';

export interface ConfineOptions {
  /** Names the server's private folder; any characters (made safe for a folder name). */
  serverId: string;
  roots: readonly GrantedFolder[];
  /** The app's data folder (the registry's config dir): private folders and packages live below it. */
  dataDir: string;
  network: boolean;
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
  /** Checks the running server (pass the spawned pid, i.e. bwrap's) from outside. */
  selfCheck(pid: number | null | undefined): Promise<SandboxSelfCheck>;
  /** The first stderr line showing the sandbox in the server's way, if any. */
  stderrBlocked(lines: readonly string[]): BlockedPath | undefined;
}

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
export function privateFolders(dataDir: string, serverId: string): { home: string; tmp: string } {
  const base = path.join(dataDir, 'sandbox', 'servers', serverId.replace(/[^a-zA-Z0-9._-]/g, '_'));
  return { home: path.join(base, 'home'), tmp: path.join(base, 'tmp') };
}

function advisory(config: StdioTransportConfig, enforcement: SandboxEnforcement): ConfinedStdio {
  return {
    config,
    enforcement,
    mounts: [],
    selfCheck: async () => ({ verified: false, at: Date.now(), detail: `not confined: ${enforcement.reason}` }),
    stderrBlocked: () => undefined,
  };
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
  });
  const program = locateProgram({ command: pkg?.command ?? config.command, args: pkg?.args ?? config.args, cwd: config.cwd, pathEnv });
  const programPaths = pkg ? [...program.paths, pkg.packageDir] : program.paths;

  let spawn: { command: string; args: string[]; env: Record<string, string> };
  let mounts: SandboxMount[];
  if (support.kind === 'bwrap') {
    const plan = planBwrap({
      bwrap: support.launcher,
      disableUserns: support.disableUserns,
      layout: options.layout ?? hostLayout(),
      command: program.command,
      args: program.args,
      env: config.env,
      cwd: config.cwd,
      programPaths,
      roots: options.roots,
      home,
      tmp,
      dataDir,
      network: options.network,
    });
    spawn = plan;
    mounts = plan.mounts;
  } else {
    const profile = seatbeltProfile({ programPaths, roots: options.roots, home, tmp, dataDir, network: options.network });
    spawn = { command: support.launcher, args: ['-p', profile, program.command, ...program.args], env: { ...config.env, HOME: home, TMPDIR: tmp } };
    mounts = [];
  }

  const confined: StdioTransportConfig = { type: 'stdio', command: spawn.command, args: spawn.args, env: spawn.env, ...(config.cwd ? { cwd: config.cwd } : {}) };
  return {
    config: confined,
    enforcement,
    mounts,
    package: pkg,
    selfCheck: async (pid) => {
      if (!pid) return { verified: false, at: Date.now(), detail: 'the server is not running' };
      if (support.kind !== 'bwrap') return { verified: false, at: Date.now(), detail: 'no self-check for Seatbelt yet (macOS is untested)' };
      return selfCheck({ pid, mounts, ...defaultCheckedDirs(dataDir) });
    },
    stderrBlocked: (lines) => findBlockedPath(lines, mounts, hostFacts),
  };
}
