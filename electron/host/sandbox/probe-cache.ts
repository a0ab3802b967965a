// The sandbox probe's answer, kept for the other processes of the same boot. A host that starts
// twenty `mcp-roots proxy` processes at once otherwise runs twenty bwrap trial runs, each before
// its server may start. The answer is reused only while nothing it depends on can have changed:
// the same boot (boot_id), the same user, the same bwrap program (its path, inode, size and
// time) and the same kernel settings for user namespaces. It is advice about which launcher to
// use, never a proof: every enforced start is still verified from outside (self-check.ts), and a
// bwrap that fails stops its server, never runs it unconfined.
import fs from 'node:fs';
import path from 'node:path';
import { findOnPath, probeSandbox, type SandboxSupport } from './sandbox-probe.js';
import { fuseDevice, helperBinary } from './view/helper-binary.js';

const FILE = 'probe.json';
// What the kernel and its security modules say about unprivileged user namespaces (absent files read as absent).
const USERNS_SETTINGS = [
  '/proc/sys/kernel/unprivileged_userns_clone',
  '/proc/sys/user/max_user_namespaces',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_unconfined',
];

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '-';
  }
}

/** Everything the probe's answer depends on, as one string; undefined where no boot id is known. */
export function probeKey(pathEnv: string | undefined = process.env.PATH): string | undefined {
  const boot = readOr('/proc/sys/kernel/random/boot_id');
  if (boot === '-') return undefined;
  const bwrap = findOnPath('bwrap', pathEnv);
  let program = 'none';
  if (bwrap) {
    const stat = fs.statSync(bwrap);
    program = `${bwrap}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  }
  // pasta too: installing passt gives network-on servers a namespace of their own from the next start.
  const pasta = findOnPath('pasta', pathEnv);
  const pastaProgram = pasta ? `${pasta}:${fs.statSync(pasta).ino}:${fs.statSync(pasta).mtimeMs}` : 'none';
  // The file view: the helper (a rebuilt one is probed again), the FUSE device and its mode, and whether it is turned off.
  const helper = helperBinary();
  const helperProgram = helper ? `${helper}:${fs.statSync(helper).ino}:${fs.statSync(helper).mtimeMs}` : 'none';
  const device = fuseDevice();
  let deviceState = 'none';
  try {
    const stat = fs.statSync(device);
    deviceState = `${device}:${stat.mode}:${stat.uid}`;
  } catch {
    // No device: the key says so.
  }
  return [boot, process.getuid?.() ?? '-', program, pastaProgram, helperProgram, deviceState, process.env.MCP_ROOTS_FILE_VIEW ?? '-', ...USERNS_SETTINGS.map(readOr)].join('|');
}

function isSupport(value: unknown): value is SandboxSupport {
  const support = value as Partial<SandboxSupport> | null;
  return (
    typeof support === 'object' &&
    support !== null &&
    (support.kind === 'bwrap' || support.kind === 'none') &&
    typeof support.reasonCode === 'string' &&
    typeof support.reason === 'string' &&
    typeof support.disableUserns === 'boolean' &&
    (support.launcher === undefined || typeof support.launcher === 'string') &&
    // Kept before the file view was probed: probed again.
    (support.kind !== 'bwrap' || (typeof support.view === 'object' && support.view !== null && typeof support.view.available === 'boolean'))
  );
}

// Answers that follow from what the key covers. A failure of another kind (a trial run that timed
// out on a loaded machine) is not kept: the next process tries again.
const LASTING = new Set(['ok', 'bwrap-missing', 'userns-blocked']);

let answer: Promise<SandboxSupport> | undefined;

/** This process's answer, found once: from the boot's kept answer, else by a trial run. */
export function sandboxSupport(dataDir: string): Promise<SandboxSupport> {
  answer ??= cachedProbe(dataDir);
  return answer;
}

/** Linux: the answer kept in `<dataDir>/sandbox/probe.json` for this boot, else a trial run (whose answer is kept). */
export async function cachedProbe(dataDir: string, probe: () => Promise<SandboxSupport> = probeSandbox): Promise<SandboxSupport> {
  const key = process.platform === 'linux' ? probeKey() : undefined;
  if (key === undefined) return probe();
  const file = path.join(dataDir, 'sandbox', FILE);
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { key?: unknown; support?: unknown };
    if (kept.key === key && isSupport(kept.support)) return kept.support;
  } catch {
    // None yet, or unreadable: probe.
  }
  const support = await probe();
  if (!LASTING.has(support.reasonCode)) return support;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify({ key, support }), { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    // Not kept (a read-only folder): the next process probes again.
  }
  return support;
}
