// What a server's file view shows, as a pure function of its grants: the one place that turns
// grants into the view's table (sent to the helper at start and after every change, so what a
// server sees at start and after a live change cannot drift apart).
//
// The view is the sandbox's root. It holds:
// - synthetic folders (read-only, empty but for what the plan puts in them): the way to each grant,
//   and each place bwrap mounts something on top (the system runtime, /proc, /dev, HOME, the
//   program's folders);
// - links: the merged-/usr links (/bin -> usr/bin) and the symlinks on the way to the program;
// - backings, passed through to a folder: each grant (read-only or read-write; a read-write one
//   with the protected-name rules), and /tmp (the holder's private tmpfs, capped);
// - over a grant that covers the app's data folder, a synthetic folder in its place: the data
//   folder is masked, and the folders on the way to it are pinned (view.c refuses to move them).
import { depth, byDepthThenPath } from '../grant-mounts.js';
import type { PathIdentity } from '../mount-descriptors.js';
import { isWithin, type GrantedFolder } from '../sandbox-types.js';
import { optOutBits, type ViewRules } from './view-rules.js';

export type ViewEntry =
  | { kind: 'dir'; path: string }
  /** An empty read-only file: the mount point of a file bwrap binds (/etc/passwd). */
  | { kind: 'file'; path: string }
  | { kind: 'link'; path: string; target: string }
  | {
      kind: 'backing';
      path: string;
      writable: boolean;
      /** The protected-name rules apply in it (a read-write grant). */
      protect: boolean;
      /** The holder's private tmpfs, not a host folder (no identity). */
      tmp: boolean;
      /** What the server does in it is recorded (a grant of the person's folders: the audit). */
      record?: boolean | undefined;
      /** The host folder it passes through to, where that is not `path` itself (the private temp folder on disk). */
      source?: string | undefined;
      identity?: PathIdentity | undefined;
      /** Rule groups the person left writable in this grant (view-rules.ts optOutBits). */
      optOuts: bigint;
    };

export interface ViewPlanInput {
  /** Effective roots: canonical host paths with their modes and opt-ins. */
  roots: readonly GrantedFolder[];
  /** Where each root is now (checked by the helper again when it opens it). */
  identityOf(path: string): PathIdentity | undefined;
  rules: ViewRules;
  dataDir: string;
  /** Where bwrap mounts on top of the view: each is a synthetic folder (or file) in it. */
  mountPoints: readonly { path: string; file: boolean }[];
  links: readonly { path: string; target: string }[];
  /** A host folder shown at this path inside /tmp (the private temp folder kept on disk), or none. */
  tmpFolder?: { path: string; inside: string } | undefined;
  /** Program folders shown read-only by the view (they hold a grant or the data folder, which keep their own entries). */
  programs?: readonly string[] | undefined;
  /** Whether the view records what the server does in its grants (audit/file-record.ts). Default: it does. */
  record?: boolean | undefined;
}

export interface ViewPlan {
  entries: ViewEntry[];
  /** The roots shown (a root gone or replaced by a symlink is left out, as everywhere). */
  roots: GrantedFolder[];
}

/** A root listed twice keeps its most permissive mode: two grants of one folder come from one decision. */
function uniqueRoots(roots: readonly GrantedFolder[]): GrantedFolder[] {
  const byPath = new Map<string, GrantedFolder>();
  for (const root of roots) {
    const seen = byPath.get(root.path);
    if (!seen || (seen.mode === 'read-only' && root.mode === 'read-write')) byPath.set(root.path, root);
  }
  return [...byPath.values()].sort((a, b) => byDepthThenPath(a.path, b.path));
}

export function planView(input: ViewPlanInput): ViewPlan {
  const entries = new Map<string, ViewEntry>();
  const set = (entry: ViewEntry) => entries.set(entry.path, entry);
  set({ kind: 'dir', path: '/' });
  set({ kind: 'backing', path: '/tmp', writable: true, protect: false, tmp: true, optOuts: 0n });
  const roots: GrantedFolder[] = [];
  for (const root of uniqueRoots(input.roots)) {
    const identity = input.identityOf(root.path);
    if (!identity?.directory || root.path === '/') continue;
    roots.push(root);
    const writable = root.mode === 'read-write';
    set({ kind: 'backing', path: root.path, writable, protect: writable, tmp: false, record: input.record !== false, identity, optOuts: writable ? optOutBits(input.rules, root.writableByChoice) : 0n });
  }
  if (input.tmpFolder) {
    const identity = input.identityOf(input.tmpFolder.path);
    // Shown at its place in /tmp, its own folder on disk: the server's, so no rules.
    if (identity?.directory) set({ kind: 'backing', path: input.tmpFolder.inside, source: input.tmpFolder.path, writable: true, protect: false, tmp: false, identity, optOuts: 0n });
  }
  for (const program of input.programs ?? []) {
    const identity = input.identityOf(program);
    if (identity?.directory && !entries.has(program)) set({ kind: 'backing', path: program, writable: false, protect: false, tmp: false, identity, optOuts: 0n });
  }
  // The data folder, wherever a grant would show it: an empty synthetic folder in its place (and the
  // way to the server's HOME, a mount point inside it, where that lies there).
  const backings = [...entries.values()].filter((entry) => entry.kind === 'backing' && !entry.tmp);
  if (backings.some((backing) => isWithin(input.dataDir, backing.path))) set({ kind: 'dir', path: input.dataDir });
  // Mount points win over grants at the same path: what bwrap mounts there is what is seen.
  for (const point of input.mountPoints) set(point.file ? { kind: 'file', path: point.path } : { kind: 'dir', path: point.path });
  for (const link of input.links) {
    // Where a grant shows the host's folder, the link is there already (and is the person's to keep).
    if (roots.some((root) => isWithin(link.path, root.path))) continue;
    if (!entries.has(link.path)) set({ kind: 'link', path: link.path, target: link.target });
  }
  return { entries: [...entries.values()].sort((a, b) => depth(a.path) - depth(b.path) || byDepthThenPath(a.path, b.path)), roots };
}
