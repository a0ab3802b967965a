// A confined start through the file view (confine-stdio.ts calls it where the probe found the view
// usable): the sandbox helper in front of bwrap, the view as the sandbox's root, the grants in the
// view's table. A grant, a revoke or a mode change is a new table: in force at the next file
// operation of the same process (open files included), with no mount made and no restart.
//
//   [cgroup join] mcp-roots-sandbox run --stage … --control-fd N … -- [prlimit …] bwrap …
//
// The spawned pid is the helper's; its child, the holder, execs bwrap (the pid the self-check and
// the limits read, and the network namespace pasta joins).
import fs from 'node:fs';
import type { Duplex, Readable, Writable } from 'node:stream';

import type { BwrapPlan } from '../bwrap-plan.js';
import { PRIVATE_TMP } from '../bwrap-plan.js';
import { identityOf, openMountDescriptors, type OpenedDescriptors, type PathIdentity } from '../mount-descriptors.js';
import { attachPrivateNetwork, type PrivateNetwork } from '../private-network.js';
import { rlimitsPrefix, type ResourceLimits } from '../resource-limits.js';
import { cgroupPrefix } from '../server-cgroup.js';
import type { GrantedFolder, SandboxMount } from '../sandbox-types.js';
import type { ViewSupport } from './helper-binary.js';
import { configuredHooksFolders } from '../protected-paths.js';
import { planView, type ViewEntry } from './view-plan.js';
import { withHooksFolders, type ViewRules } from './view-rules.js';
import { ViewRefused, ViewSession } from './view-session.js';
import type { ViewAuditEvent } from './view-protocol.js';
import type { LiveRestartReason } from '../../../../shared/activity-event.js';
import { startMark } from '../start-marks.js';

export interface ViewConfineInput {
  view: Extract<ViewSupport, { available: true }>;
  plan: BwrapPlan;
  stage: string;
  roots: readonly GrantedFolder[];
  rules: ViewRules;
  dataDir: string;
  /** The private temp folder on disk, shown at /tmp/.private when there are no limits (with limits it lives in the capped /tmp). */
  tmp: string;
  limits: ResourceLimits | undefined;
  /** The seccomp filter's file, opened at each spawn after the program folders' descriptors. */
  filterFile: string | undefined;
  /** pasta and its ports, when the server's network is on through a namespace of its own. */
  network: PrivateNetwork | undefined;
  /** Program folders bound by bwrap, each with the identity it must still have at the spawn. */
  bound: readonly { path: string; identity: PathIdentity }[];
  /** What the server does in its grants, as the view reports it (the record: file-record.ts). */
  onAudit?: ((events: ViewAuditEvent[], dropped: number) => void) | undefined;
}

export type ViewChange = { kind: 'applied'; added: string[]; revoked: string[]; ms: number } | { kind: 'unchanged' } | { kind: 'restart'; reason: LiveRestartReason };

export interface ViewConfined {
  spawn: { command: string; args: string[]; env: Record<string, string> };
  openDescriptors(): OpenedDescriptors;
  /** The holder's pid for a spawned helper's pid, once its view is up (the self-check and the limits read it). */
  holderOf(pid: number): Promise<number | undefined>;
  /** Puts these roots in force in the running sandbox of `pid`. */
  apply(pid: number, roots: readonly GrantedFolder[]): Promise<ViewChange>;
  /** The roots in force now, and every path the server reaches. */
  roots(): readonly GrantedFolder[];
  mounts(): SandboxMount[];
  entries(): readonly ViewEntry[];
}

/** A mount point of bwrap's as the view must show it: a folder, or an empty file for a file; nothing where the host has nothing. */
function mountPointsOf(paths: readonly string[]): { path: string; file: boolean }[] {
  return paths.flatMap((p) => {
    try {
      return [{ path: p, file: !fs.statSync(p).isDirectory() }];
    } catch {
      return [];
    }
  });
}

export function confineWithView(input: ViewConfineInput): ViewConfined {
  const shape = input.plan.view;
  if (!shape) throw new Error('a view start needs a plan made for the view');
  const mountPoints = mountPointsOf(shape.mountPoints);
  const tmpFolder = input.limits ? undefined : { path: input.tmp, inside: PRIVATE_TMP };
  const planFor = (roots: readonly GrantedFolder[]) => {
    // Found anew at each change: a repository's hooks folder where its config names one.
    const rules = withHooksFolders(input.rules, configuredHooksFolders(roots));
    return { ...planView({ roots, identityOf, rules, dataDir: input.dataDir, mountPoints, links: shape.links, tmpFolder, programs: shape.viewedPrograms, record: input.onAudit !== undefined }), rules };
  };
  let current = planFor(input.roots);
  const ownMounts = input.plan.mounts.filter((mount) => mount.purpose !== 'root');
  const sessions = new Map<number, ViewSession>();

  // Descriptors, in the child's stdio after 0-2: the program folders bwrap binds, the filter, the
  // private network's block pipe, then the control socket (a pipe: libuv makes it a socket pair).
  const fdCount = input.plan.descriptors.length + (input.filterFile ? 1 : 0);
  const network = input.network;
  const blockPipe = network !== undefined && input.plan.blockFd !== undefined;
  const controlFd = 3 + fdCount + (blockPipe ? 1 : 0);
  const keep = [...Array.from({ length: fdCount }, (_, i) => 3 + i), ...(blockPipe ? [3 + fdCount] : [])];
  const helperArgs = [
    'run',
    '--stage',
    input.stage,
    '--control-fd',
    String(controlFd),
    '--fuse-device',
    input.view.fuseDevice,
    // The private /tmp: capped where limits apply, and TMPDIR made in it; without limits TMPDIR is the folder on disk.
    ...(input.limits ? ['--tmp-bytes', String(input.limits.tmpBytes), '--tmpdir', PRIVATE_TMP.slice('/tmp/'.length)] : []),
    ...(blockPipe ? ['--net'] : []),
    ...keep.flatMap((fd) => ['--keep-fd', String(fd)]),
    '--',
  ];
  const inner = [...(input.limits ? rlimitsPrefix(input.limits) : []), ...input.plan.bwrapCommand];
  const argv = [...cgroupPrefix(input.limits?.cgroup), input.view.helper, ...helperArgs, ...inner];

  return {
    spawn: { command: argv[0] as string, args: argv.slice(1), env: input.plan.env },
    openDescriptors: () => {
      const { entries, rules } = current;
      // Each grant is checked here (the helper checks it again as it opens it): a folder swapped since
      // the plan is refused before the spawn, with the code the UI explains ('folder-changed').
      const backings = entries.flatMap((entry) => (entry.kind === 'backing' && entry.identity ? [{ path: entry.source ?? entry.path, identity: entry.identity }] : []));
      openMountDescriptors(backings).close();
      const seccompFd = input.filterFile ? [fs.openSync(input.filterFile, 'r')] : [];
      const opened = openMountDescriptors(input.bound, seccompFd);
      return {
        ...opened,
        pipes: (blockPipe ? 1 : 0) + 1,
        whenSpawned: async (pipes: (Readable | Writable)[], pid: number | undefined) => {
          if (!pid) throw new Error('the sandbox helper did not start');
          startMark('helper');
          const session = new ViewSession(pipes[pipes.length - 1] as Duplex, input.onAudit);
          // The first table: the helper opens each grant (no symlink followed, the very folder checked) and serves it.
          await session.apply(rules, entries);
          startMark('fileview');
          const holder = await session.holder;
          startMark('holder');
          sessions.set(pid, session);
          const stop = blockPipe ? await attachPrivateNetwork(network as PrivateNetwork, holder, pipes[0] as Writable) : undefined;
          if (blockPipe) startMark('pasta');
          return () => {
            sessions.delete(pid);
            stop?.();
          };
        },
      };
    },
    holderOf: async (pid) => {
      const session = sessions.get(pid);
      return session ? session.holder : undefined;
    },
    apply: async (pid, roots) => {
      const started = performance.now();
      const session = sessions.get(pid);
      if (!session) return { kind: 'restart', reason: { why: 'view-gone' } };
      const next = planFor(roots);
      if (JSON.stringify([next.entries, next.rules], bigints) === JSON.stringify([current.entries, current.rules], bigints)) return { kind: 'unchanged' };
      try {
        await session.apply(next.rules, next.entries);
      } catch (error) {
        const why = error instanceof ViewRefused ? error.why : (error as Error).message;
        return { kind: 'restart', reason: { why: 'view-refused', detail: why } };
      }
      const before = new Set(current.roots.map((root) => root.path));
      const after = new Set(next.roots.map((root) => root.path));
      current = next;
      return {
        kind: 'applied',
        added: [...after].filter((p) => !before.has(p)),
        revoked: [...before].filter((p) => !after.has(p)),
        ms: performance.now() - started,
      };
    },
    roots: () => current.roots,
    mounts: () => [...ownMounts, ...current.roots.map((root) => ({ path: root.path, writable: root.mode === 'read-write', purpose: 'root' as const }))],
    entries: () => current.entries,
  };
}

function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

