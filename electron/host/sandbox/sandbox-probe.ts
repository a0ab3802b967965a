// Which OS enforcement this process can use, decided once: a trial run, not a guess from the
// platform name. Linux needs `bwrap` on PATH AND working user namespaces (Ubuntu 24.04's AppArmor,
// containers and hardened kernels refuse them); macOS needs sandbox-exec; everything else is advisory.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxEnforcement } from '../../../shared/sandbox.js';
import { probePrivateNetwork, type PrivateNetworkSupport } from './private-network.js';
import { probeView, type ViewSupport } from './view/helper-binary.js';

export interface SandboxSupport extends SandboxEnforcement {
  /** Absolute path of `bwrap` or `sandbox-exec` when kind is not 'none'. */
  launcher?: string | undefined;
  /** bwrap understands --disable-userns (0.8+): the server cannot make nested user namespaces. */
  disableUserns: boolean;
  /** bwrap only: whether network-on servers get a network namespace of their own (private-network.ts). Absent: they share the host's. */
  privateNetwork?: PrivateNetworkSupport | undefined;
  /**
   * bwrap only: whether servers see their grants through a file view of their own (view/), which
   * decides every operation at any depth and any time; where not, through bind mounts with
   * protection found at start (static), and `reason` says why.
   */
  view?: ViewSupport | undefined;
}

export interface ProbeOptions {
  /** Defaults to process.platform; tests pass another to see its answer. */
  platform?: NodeJS.Platform;
  /** The PATH searched for bwrap; defaults to process.env.PATH. Tests drop bwrap's folder from it. */
  pathEnv?: string | undefined;
  /** How long the trial run may take (a loaded 2-core machine needs generous time). */
  timeoutMs?: number;
}

/** Finds an executable on a PATH string, like `which`. */
export function findOnPath(name: string, pathEnv: string | undefined): string | undefined {
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: keep looking.
    }
  }
  return undefined;
}

/**
 * The namespaces and mounts a real confined server needs (user, pid, net, ipc, uts namespaces; a
 * bind, a fresh /proc and /dev), with bwrap itself as the program so nothing else must exist.
 */
export function bwrapTrialArgs(bwrap: string, disableUserns: boolean): string[] {
  return [
    '--unshare-all',
    '--unshare-user',
    ...(disableUserns ? ['--disable-userns'] : []),
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--',
    bwrap,
    '--version',
  ];
}

// What bwrap prints when the kernel or a security module refuses it an unprivileged namespace.
const USERNS_REFUSED = [
  /no permissions to creat(e|ing) new namespace/i,
  /creating new namespace failed/i,
  /setting up uid map/i,
  /unshare.*operation not permitted/i,
  /user namespaces? .*(not permitted|disabled|not supported)/i,
  /clone.*operation not permitted/i,
];

export function classifyBwrapFailure(stderr: string): Pick<SandboxEnforcement, 'reasonCode' | 'reason'> {
  const message = stderr.trim().split('\n').filter(Boolean).slice(-1)[0] ?? 'no message';
  if (USERNS_REFUSED.some((pattern) => pattern.test(stderr))) {
    return {
      reasonCode: 'userns-blocked',
      reason: `bubblewrap cannot create a user namespace here (${message}); on Ubuntu 24.04 AppArmor blocks them unless a profile allows bwrap.`,
    };
  }
  return { reasonCode: 'bwrap-failed', reason: `bubblewrap's trial run failed: ${message}` };
}

function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, encoding: 'utf8' }, (error, _stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stderr: stderr || (error && code === null ? error.message : '') });
    });
  });
}

export async function probeSandbox(options: ProbeOptions = {}): Promise<SandboxSupport> {
  const platform = options.platform ?? process.platform;
  const pathEnv = 'pathEnv' in options ? options.pathEnv : process.env.PATH;
  const timeoutMs = options.timeoutMs ?? 15_000;
  if (platform === 'darwin') {
    const launcher = '/usr/bin/sandbox-exec';
    if (!fs.existsSync(launcher)) {
      return { kind: 'none', reasonCode: 'sandbox-exec-missing', reason: 'macOS without /usr/bin/sandbox-exec: servers run advisory (roots only).', disableUserns: false };
    }
    return { kind: 'seatbelt', reasonCode: 'ok', reason: 'Seatbelt (sandbox-exec) profile per server.', launcher, disableUserns: false };
  }
  if (platform !== 'linux') {
    return {
      kind: 'none',
      reasonCode: 'platform-unsupported',
      reason: `No OS sandbox on ${platform === 'win32' ? 'Windows' : platform}: servers run advisory (roots only).`,
      disableUserns: false,
    };
  }
  const bwrap = findOnPath('bwrap', pathEnv);
  if (!bwrap) {
    return {
      kind: 'none',
      reasonCode: 'bwrap-missing',
      reason: 'bubblewrap (bwrap) is not installed: servers run advisory (roots only). Install the "bubblewrap" package to confine them.',
      disableUserns: false,
    };
  }
  let trial = await run(bwrap, bwrapTrialArgs(bwrap, true), timeoutMs);
  let disableUserns = true;
  if (trial.code !== 0 && /unknown option.*--disable-userns/i.test(trial.stderr)) {
    // bwrap before 0.8: confine without it (nested namespaces cannot see more than their parent anyway).
    disableUserns = false;
    trial = await run(bwrap, bwrapTrialArgs(bwrap, false), timeoutMs);
  }
  if (trial.code !== 0) return { kind: 'none', ...classifyBwrapFailure(trial.stderr), disableUserns: false };
  const [privateNetwork, view] = await Promise.all([probePrivateNetwork(bwrap, findOnPath('pasta', pathEnv), timeoutMs), probeView(timeoutMs)]);
  return { kind: 'bwrap', reasonCode: 'ok', reason: 'bubblewrap confines each server to its folders.', launcher: bwrap, disableUserns, privateNetwork, view };
}
