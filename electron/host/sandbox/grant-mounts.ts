// The grant-related part of a sandbox, as one list: each effective root, the folders pinned on the
// way to the data folder and the protected paths, the protected paths themselves, and the mask over
// the data folder. The one place that turns grants into bind mounts: bwrap's plan binds this list
// at start where there is no file view (with one, view-plan.ts turns the same grants into its table).
import path from 'node:path';
import { isWithin, type GrantedFolder, type SandboxMount } from './sandbox-types.js';

/** One grant-related mount, in mount order (later ones cover earlier ones). */
export interface GrantMount extends SandboxMount {
  purpose: 'root' | 'anchor' | 'protected' | 'mask';
}

export interface GrantTreeInput {
  roots: readonly GrantedFolder[];
  /** The app's data folder: masked wherever a root or a program path covers it, and pinned. */
  dataDir: string;
  /** Existing paths inside read-write roots that stay read-only (protected-paths.ts). */
  protectedPaths: readonly string[];
  /** The program paths bwrap binds (after dropping those inside the system runtime). */
  programs: readonly string[];
}

export const depth = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);
/**
 * Shallower paths first, then by code unit: any fixed order will do (it only has to put parents
 * before children), and localeCompare's first call loads the ICU collator, ~18 ms of CPU that every
 * proxy paid at start-up for two or three paths.
 */
export const byDepthThenPath = (a: string, b: string) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);

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

/**
 * Roots, the anchors and the protected paths, parents before children; at one path a root comes
 * first and a protected path last, so protection holds over a grant of the same folder. Then the
 * mask over the data folder, when a root or a program path would expose it.
 */
export function grantTree(input: GrantTreeInput): GrantMount[] {
  const roots = rootMounts(input.roots);
  const order = { root: 0, anchor: 1, protected: 2 } as const;
  const tree = [
    ...roots.map((root) => ({ ...root, kind: 'root' as const })),
    ...pinnedAncestors(roots, [input.dataDir, ...input.protectedPaths]).map((anchor) => ({ ...anchor, kind: 'anchor' as const })),
    ...input.protectedPaths.map((p) => ({ path: p, mode: 'read-only' as const, kind: 'protected' as const })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || order[a.kind] - order[b.kind] || byDepthThenPath(a.path, b.path));
  const mounts: GrantMount[] = tree.map((entry) => ({ path: entry.path, writable: entry.mode === 'read-write', purpose: entry.kind }));
  const exposesDataDir = [...roots.map((root) => root.path), ...input.programs].some((outer) => isWithin(input.dataDir, outer));
  if (exposesDataDir) mounts.push({ path: input.dataDir, writable: false, purpose: 'mask' });
  return mounts;
}
