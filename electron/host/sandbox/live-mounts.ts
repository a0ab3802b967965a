// Applies a change of a running confined server's effective roots to its sandbox, live: the app
// enters the server's holder namespace (holder-launch.ts) with nsenter and adds, drops or remounts
// grant mounts there; they propagate into the running sandbox. The same list (grant-mounts.ts) and
// the same shell functions as at start, so a live change mounts exactly what a new start would.
//
// Restarted instead (the outcome says why, in words for the activity log):
// - a process of the sandbox holds a file, its cwd or a mapping under a folder that is revoked or
//   changes mode (held-open.ts): a lazy unmount would leave it that folder, with its old mode;
// - the change reaches a mount bwrap made itself (the system runtime, the program, HOME, the private
//   temp folder) or the data folder's mask: only a new start orders those right;
// - a folder is gone or no longer what it was, the holder refused a mount, or a mount did not land
//   exactly where it was planned (a symlink raced it): the holder's own mount table is read after
//   every change, and anything but the plan restarts the server.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { grantTree, type GrantMount } from './grant-mounts.js';
import { describeHeld, heldUnder } from './held-open.js';
import { batchCommands, liveBatch, mountFlagsOf, writeHolderBatch, type LiveBatch } from './holder-batch.js';
import { dropCommands, holderFunctions, placeCommand, shellQuote } from './holder-launch.js';
import { identityOf, type PathIdentity } from './mount-descriptors.js';
import { isWithin, type GrantedFolder, type SandboxMount } from './sandbox-types.js';
import { parseMountinfo } from './self-check.js';

export interface LiveState {
  grantMounts: GrantMount[];
  identities: Map<string, PathIdentity>;
}

export interface LiveMountsInput {
  nsenter: string;
  stage: string;
  dataDir: string;
  /** Program paths bwrap binds (a mask over the data folder depends on them). */
  programs: readonly string[];
  /** The mounts bwrap made itself: a change may not reach above or below them. */
  ownMounts: readonly SandboxMount[];
  /**
   * The protected paths for these roots (protected-paths.ts protectRoots): placeholders for missing
   * names are made here, before the holder mounts them, and each grant's opt-in is honoured.
   */
  protectedPaths(roots: readonly GrantedFolder[]): string[];
}

export type LiveOutcome =
  | { kind: 'applied'; state: LiveState; added: string[]; revoked: string[]; ms: number }
  | { kind: 'unchanged' }
  | { kind: 'restart'; reason: string };

/** Live changes of this process: each writes its batch to a folder of its own. */
let liveChanges = 0;

const key = (mount: GrantMount) => `${mount.purpose}:${mount.writable ? 'rw' : 'ro'}:${mount.path}`;
/** How long one change may take in the holder before the server is restarted instead. */
const HOLDER_TIMEOUT_MS = 10_000;

/** The mounts to drop (deepest first) and to add (in mount order) to go from `before` to `after`. */
export function mountChanges(before: readonly GrantMount[], after: readonly GrantMount[]): { drop: GrantMount[]; add: GrantMount[] } {
  const beforeKeys = new Set(before.map(key));
  const afterKeys = new Set(after.map(key));
  const dropped = before.filter((mount) => !afterKeys.has(key(mount)));
  const added = after.filter((mount) => !beforeKeys.has(key(mount)));
  const changed = [...dropped, ...added].map((mount) => mount.path);
  // A mount below a changed one goes with it (a lazy unmount takes its children) or is covered by
  // it (a new mount above it): it is dropped and added again, on top.
  const below = (mount: GrantMount) => changed.some((p) => p !== mount.path && isWithin(mount.path, p));
  const drop = [...dropped, ...before.filter((mount) => afterKeys.has(key(mount)) && below(mount))];
  const add = [...added, ...after.filter((mount) => beforeKeys.has(key(mount)) && below(mount))];
  const order = new Map(after.map((mount, i) => [key(mount), i]));
  add.sort((a, b) => (order.get(key(a)) as number) - (order.get(key(b)) as number));
  drop.sort((a, b) => b.path.split('/').length - a.path.split('/').length);
  return { drop, add };
}

function runHolder(nsenter: string, pid: number, script: string): Promise<{ ok: boolean; message: string }> {
  return new Promise((resolve) => {
    execFile(
      nsenter,
      ['--preserve-credentials', '-t', String(pid), '-U', '-m', '/bin/sh', '-c', script],
      { timeout: HOLDER_TIMEOUT_MS, encoding: 'utf8' },
      (error, _stdout, stderr) => {
        const message = stderr.trim().split('\n').filter(Boolean).slice(-1)[0] ?? error?.message ?? '';
        resolve({ ok: !error, message });
      },
    );
  });
}

/** The holder's mount points inside its stage's root, as paths inside the sandbox, plus any left in pending. */
export function holderMountPoints(pid: number, stage: string): { inside: string[]; stray: string[] } {
  const points = [...parseMountinfo(fs.readFileSync(`/proc/${pid}/mountinfo`, 'utf8')).keys()];
  const root = `${stage}/root`;
  return {
    inside: points.filter((p) => p.startsWith(`${root}/`)).map((p) => p.slice(root.length)),
    stray: points.filter((p) => p.startsWith(`${stage}/pending/`)),
  };
}

export class LiveMounts {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly input: LiveMountsInput,
    private state: LiveState,
  ) {}

  get current(): LiveState {
    return this.state;
  }

  /** Changes the running sandbox of `pid` (the holder: bwrap's outer process) to these roots. One change at a time. */
  apply(pid: number, roots: readonly GrantedFolder[]): Promise<LiveOutcome> {
    const run = this.chain.then(() => this.applyNow(pid, roots));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async applyNow(pid: number, wanted: readonly GrantedFolder[]): Promise<LiveOutcome> {
    const started = performance.now();
    const roots = wanted.filter((root) => identityOf(root.path)?.directory === true);
    const gone = wanted.find((root) => !roots.includes(root));
    if (gone) return { kind: 'restart', reason: `${gone.path} is gone or is a symlink now` };
    const after = grantTree({ roots, dataDir: this.input.dataDir, protectedPaths: this.input.protectedPaths(roots), programs: this.input.programs });
    const { drop, add } = mountChanges(this.state.grantMounts, after);
    if (drop.length === 0 && add.length === 0) return { kind: 'unchanged' };

    for (const mount of [...drop, ...add]) {
      if (mount.purpose === 'mask') return { kind: 'restart', reason: 'the data folder’s mask changes with it' };
      const clash = this.input.ownMounts.find((own) => isWithin(own.path, mount.path) || (isWithin(mount.path, own.path) && own.path !== '/tmp'));
      if (clash) return { kind: 'restart', reason: `${mount.path} is where the sandbox’s own ${clash.purpose} mount ${clash.path} is` };
    }
    // Revoked, or changing mode: what a process still holds there would keep the old mount, with its old mode.
    const leaving = drop.filter((mount) => mount.purpose === 'root').map((mount) => mount.path);
    const held = heldUnder(pid, leaving);
    if (held) return { kind: 'restart', reason: describeHeld(held) };

    const identities = new Map(this.state.identities);
    for (const mount of drop) identities.delete(mount.path);
    for (const mount of add) {
      if (mount.purpose === 'mask') continue;
      const identity = identityOf(mount.path);
      if (!identity) return { kind: 'restart', reason: `${mount.path} is gone or is a symlink now` };
      identities.set(mount.path, identity);
    }
    // The new mounts in one batch, built in the holder's private pending folder and read back there,
    // then moved in whole: a read-write folder arrives with its protected paths already read-only
    // inside it (holder-batch.ts liveBatch).
    let batch: LiveBatch;
    try {
      batch = liveBatch({ stage: this.input.stage, add, identities, flagsOf: mountFlagsOf(), tag: `live-${process.pid}-${++liveChanges}` });
    } catch (error) {
      return { kind: 'restart', reason: `${(error as Error).message}: only a new start mounts that in order` };
    }
    const dir = path.join(path.dirname(this.input.stage), `live-${process.pid}-${liveChanges}`);
    let result: { ok: boolean; message: string };
    try {
      writeHolderBatch(dir, batch.files);
      const script = [
        holderFunctions(this.input.stage),
        ...dropCommands(drop),
        ...(add.length > 0 ? batchCommands({ dir, quote: shellQuote }) : []),
        ...batch.moves.map((move) => placeCommand(move.path, move.pending, move.directory)),
      ].join('\n');
      result = await runHolder(this.input.nsenter, pid, script);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // Whatever happened, the holder's own table says what is mounted now.
    let points: { inside: string[]; stray: string[] };
    try {
      points = holderMountPoints(pid, this.input.stage);
    } catch (error) {
      return { kind: 'restart', reason: `its holder could not be read (${(error as Error).message})` };
    }
    if (!result.ok) return { kind: 'restart', reason: `the live change failed (${result.message})` };
    const expected = new Set(['/tmp', ...after.map((mount) => mount.path)]);
    const unexpected = [...points.inside.filter((p) => !expected.has(p)), ...points.stray];
    if (unexpected.length > 0) return { kind: 'restart', reason: `a mount landed at ${unexpected[0]}, not where it was planned (something raced the change)` };
    const missing = [...expected].find((p) => !points.inside.includes(p));
    if (missing) return { kind: 'restart', reason: `${missing} is not mounted after the change` };
    this.state = { grantMounts: after, identities };
    const revoked = drop.filter((mount) => mount.purpose === 'root' && !after.some((kept) => kept.purpose === 'root' && kept.path === mount.path)).map((mount) => mount.path);
    const addedRoots = add.filter((mount) => mount.purpose === 'root').map((mount) => mount.path);
    return { kind: 'applied', state: this.state, added: addedRoots, revoked, ms: performance.now() - started };
  }
}
