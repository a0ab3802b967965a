// The directories on the way to each monitored root, watched once each however many roots pass
// through them. A watch on a directory reports changes to its entries, so a root's accessibility is
// covered by watching its ancestors, not the root itself: the parent sees the root deleted, renamed,
// restored, chmod'ed or swapped for a symlink; the grandparent sees the parent do the same; and a
// missing root is followed up to its nearest existing ancestor, which sees the missing step return.
// Not watching the root keeps the writes inside a busy project folder from waking the app at all.
//
// 1,000 roots in one folder cost one watch per directory from / down to that folder, not 1,000.
import fs from 'node:fs';
import path from 'node:path';
import type { RootId } from '../../../shared/domain.js';
import type { WayAbove } from './access-probe.js';

interface DirWatch {
  readonly dir: string;
  /** The directory the watch was put on: a path that now names another one needs a new watch. */
  dev: number;
  ino: number;
  watcher: fs.FSWatcher | undefined;
  /** An event may have replaced this directory (or an inode number was reused): re-arm at the next look. */
  suspect: boolean;
  /** Entry name -> the roots whose path continues through that entry. */
  readonly through: Map<string, Set<RootId>>;
}

interface Step {
  dir: string;
  entry: string;
}

/** Why a walk stopped above the root: what the root's probe can say without looking again. */
type Blocked = Exclude<WayAbove, 'folders'>;

/** Within one batch (a sweep slice, a new set of roots), ancestors shared by many roots are looked at once. */
export type WalkBatch = Map<string, DirWatch | Blocked>;

export class AncestorWatches {
  private readonly dirs = new Map<string, DirWatch>();
  private readonly chains = new Map<RootId, readonly Step[]>();
  private readonly ways = new Map<RootId, { path: string; steps: readonly Step[] }>();

  /** `touched`: these roots may have changed (an entry on their way did); the caller re-looks. */
  constructor(
    private readonly touched: (ids: Iterable<RootId>) => void,
    // Elsewhere than Linux a watch on a volume's top may report the whole disk (FSEvents): the
    // sweep covers a top-level folder renamed there.
    private readonly watchTop = process.platform === 'linux',
  ) {}

  /**
   * (Re)follows one root. Walks its path from the top, putting a watch on each real directory BEFORE
   * looking at the next step, so a change made after any look is always reported by a watch already
   * in place. The walk stops at the first step that is missing, not a folder, a symlink or
   * unreadable: the watch above it reports that step changing again.
   */
  follow(id: RootId, canonicalPath: string, batch: WalkBatch = new Map()): WayAbove {
    const way = this.wayTo(id, canonicalPath);
    const { taken, above } = this.walk(way, batch);
    const previous = this.chains.get(id) ?? [];
    // Chains run from the top down: only the steps after the common start change hands.
    let same = 0;
    while (same < taken.length && same < previous.length && sameStep(taken[same] as Step, previous[same] as Step)) same++;
    for (const step of taken.slice(same)) this.register(id, step);
    this.chains.set(id, taken);
    this.release(id, previous.slice(same));
    return above;
  }

  forget(id: RootId): void {
    const previous = this.chains.get(id);
    this.chains.delete(id);
    this.ways.delete(id);
    if (previous) this.release(id, previous);
  }

  closeAll(): void {
    for (const watch of this.dirs.values()) watch.watcher?.close();
    this.dirs.clear();
    this.chains.clear();
    this.ways.clear();
  }

  /**
   * The safety net's cheap look (one lstat per watched directory): the roots behind a directory that
   * has no watch (it could not be armed) or that is no longer the directory its watch sits on (an
   * event was lost). Their watches are re-armed when they are followed again.
   */
  unsure(): Set<RootId> {
    const ids = new Set<RootId>();
    for (const watch of this.dirs.values()) {
      if (!this.watchTop && path.dirname(watch.dir) === watch.dir) continue;
      const stat = watch.watcher ? lstatOrNothing(watch.dir) : undefined;
      if (stat?.isDirectory() && stat.dev === watch.dev && stat.ino === watch.ino) continue;
      watch.suspect = true;
      for (const id of everyRoot(watch)) ids.add(id);
    }
    return ids;
  }

  /** Directories with a live watch (the number of inotify watches this costs). */
  get count(): number {
    let armed = 0;
    for (const watch of this.dirs.values()) if (watch.watcher) armed++;
    return armed;
  }

  /** The directories a root's accessibility is followed through (tests). */
  chainOf(id: RootId): readonly string[] {
    return (this.chains.get(id) ?? []).map((step) => step.dir);
  }

  /** The steps from the top of the file system to the root, split once per root path. */
  private wayTo(id: RootId, canonicalPath: string): readonly Step[] {
    const known = this.ways.get(id);
    if (known?.path === canonicalPath) return known.steps;
    const top = path.parse(canonicalPath).root;
    const steps: Step[] = [];
    let dir = top;
    for (const entry of canonicalPath.slice(top.length).split(path.sep).filter(Boolean)) {
      steps.push({ dir, entry });
      dir = path.join(dir, entry);
    }
    this.ways.set(id, { path: canonicalPath, steps });
    return steps;
  }

  private walk(way: readonly Step[], batch: WalkBatch): { taken: Step[]; above: WayAbove } {
    const taken: Step[] = [];
    for (const step of way) {
      let seen = batch.get(step.dir);
      if (seen === undefined) {
        seen = this.look(step.dir);
        batch.set(step.dir, seen);
      }
      if (typeof seen === 'string') return { taken, above: seen };
      taken.push(step);
    }
    return { taken, above: 'folders' };
  }

  /** Looks at one directory on a root's way and makes sure a watch sits on what is there now. */
  private look(dir: string): DirWatch | Blocked {
    const stat = lstatOrNothing(dir);
    if (stat === null) return 'unknown'; // no permission to look: the probe says so
    // Missing, a file or a symlink in the way: the watch above sees it change; the probe says where a symlink leads.
    if (!stat) return 'missing';
    if (stat.isSymbolicLink()) return 'unknown';
    if (!stat.isDirectory()) return 'not-a-folder';
    let watch = this.dirs.get(dir);
    if (!watch) {
      watch = { dir, dev: stat.dev, ino: stat.ino, watcher: undefined, suspect: true, through: new Map() };
      this.dirs.set(dir, watch);
    }
    if (watch.suspect || !watch.watcher || watch.dev !== stat.dev || watch.ino !== stat.ino) {
      watch.dev = stat.dev;
      watch.ino = stat.ino;
      if (this.watchTop || path.dirname(dir) !== dir) this.arm(watch);
    }
    return watch;
  }

  private arm(watch: DirWatch): void {
    watch.watcher?.close();
    watch.watcher = undefined;
    watch.suspect = false;
    try {
      const watcher = fs.watch(watch.dir, { persistent: false }, (_event, entry) => this.changed(watch, entry));
      watcher.on('error', () => {
        if (watch.watcher !== watcher) return;
        watcher.close();
        watch.watcher = undefined;
        this.touched(everyRoot(watch));
      });
      watch.watcher = watcher;
    } catch {
      // Out of watches, or no permission to read the folder: the safety net covers these roots
      // (unsure() names them), and the next look tries again.
    }
  }

  private changed(watch: DirWatch, entry: string | null): void {
    if (this.dirs.get(watch.dir) !== watch || !watch.watcher) return;
    if (entry === null || entry === path.basename(watch.dir)) {
      // The directory itself changed (inotify names it after itself), or an entry of the same name:
      // either way everything below may have, and the watch may now sit on a directory elsewhere.
      watch.suspect = true;
      this.touched(everyRoot(watch));
      return;
    }
    const below = this.dirs.get(path.join(watch.dir, entry));
    if (below) below.suspect = true;
    const ids = watch.through.get(entry);
    if (ids) this.touched(ids);
  }

  private register(id: RootId, step: Step): void {
    const through = this.dirs.get(step.dir)?.through;
    if (!through) return;
    const ids = through.get(step.entry);
    if (ids) ids.add(id);
    else through.set(step.entry, new Set([id]));
  }

  /** Drops a root from the steps it no longer takes; a directory nobody passes through loses its watch. */
  private release(id: RootId, steps: readonly Step[]): void {
    for (const step of steps) {
      const watch = this.dirs.get(step.dir);
      const ids = watch?.through.get(step.entry);
      if (!watch || !ids) continue;
      ids.delete(id);
      if (ids.size === 0) watch.through.delete(step.entry);
      if (watch.through.size === 0) {
        watch.watcher?.close();
        this.dirs.delete(step.dir);
      }
    }
  }
}

/** undefined: nothing there (ENOENT, ENOTDIR); null: it could not be looked at (EACCES, ELOOP…). */
function lstatOrNothing(dir: string): fs.Stats | undefined | null {
  try {
    return fs.lstatSync(dir, { throwIfNoEntry: false });
  } catch {
    return null;
  }
}

function sameStep(a: Step, b: Step): boolean {
  return a.dir === b.dir && a.entry === b.entry;
}

function everyRoot(watch: DirWatch): Set<RootId> {
  const all = new Set<RootId>();
  for (const ids of watch.through.values()) for (const id of ids) all.add(id);
  return all;
}
