// Watches every root's accessibility, event-driven: watches on the directories on each root's way
// (ancestor-watches.ts) report a root or any parent deleted, renamed, restored, chmod'ed or swapped
// for a symlink, and the roots it concerns are probed again at once. A sweep is the safety net for
// what no event reports (a folder that could not be watched, an event lost to a full queue): every
// 2 s it re-checks each watched directory (one lstat each) and re-probes the roots no live watch
// covers; every 30 s it re-probes every root. Changes are coalesced into one `change` event.
import { EventEmitter } from 'node:events';
import type { RootAccess, RootId } from '../../../shared/domain.js';
import { probeRoot, sameAccess } from './access-probe.js';
import { AncestorWatches, type WalkBatch } from './ancestor-watches.js';

export interface MonitoredRoot {
  id: RootId;
  canonicalPath: string;
}

export interface AccessMonitorOptions {
  /**
   * How often the safety net looks (0: never, events only): each time it re-checks every watched
   * directory and re-probes the roots no live watch covers. Only what no event reports waits for it.
   */
  sweepIntervalMs?: number;
  /** Every this many sweeps, every root is re-probed as well (a lost event could hide any of them). */
  fullSweepEvery?: number;
  /** Watch events within this window cause one probe of each root they concern. */
  debounceMs?: number;
  /** Roots probed per slice of a sweep before yielding to the event loop. */
  sliceSize?: number;
}

/** The safety net only: every change the watches report is seen within milliseconds. */
export const DEFAULT_SWEEP_MS = 2000;
/** A full re-probe every 30 s: ~30-50 ms of CPU for 1,000 roots, ~0.1 % of a core. */
export const DEFAULT_FULL_SWEEP_EVERY = 15;

export class AccessMonitor extends EventEmitter<{ change: [ReadonlyMap<RootId, RootAccess>] }> {
  private readonly roots = new Map<RootId, MonitoredRoot>();
  private readonly access = new Map<RootId, RootAccess>();
  private readonly watches = new AncestorWatches((ids) => this.schedulePending(ids));
  private readonly pending = new Set<RootId>();
  private pendingTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private changed = new Map<RootId, RootAccess>();
  private flushScheduled = false;
  private readonly sweepIntervalMs: number;
  private readonly fullSweepEvery: number;
  private sweeps = 0;
  private sweepMicros = 0;
  private readonly debounceMs: number;
  private readonly sliceSize: number;

  constructor(options: AccessMonitorOptions = {}) {
    super();
    this.sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_MS;
    this.fullSweepEvery = Math.max(1, options.fullSweepEvery ?? DEFAULT_FULL_SWEEP_EVERY);
    this.debounceMs = options.debounceMs ?? 5;
    this.sliceSize = options.sliceSize ?? 250;
  }

  get(rootId: RootId): RootAccess {
    return this.access.get(rootId) ?? { state: 'checking', checkedAt: 0 };
  }

  snapshot(): ReadonlyMap<RootId, RootAccess> {
    return this.access;
  }

  /** Replaces the monitored set. New or moved roots are probed right away (synchronously). */
  setRoots(roots: readonly MonitoredRoot[]): void {
    const next = new Map(roots.map((root) => [root.id, root]));
    for (const id of this.roots.keys()) {
      if (!next.has(id)) {
        this.watches.forget(id);
        this.roots.delete(id);
        this.access.delete(id);
      }
    }
    const batch: WalkBatch = new Map();
    for (const root of roots) {
      const previous = this.roots.get(root.id);
      if (previous?.canonicalPath === root.canonicalPath) continue;
      this.roots.set(root.id, root);
      this.probe(root.id, batch);
    }
    this.startSweeping();
  }

  /** Probes now: the caller wants a fresh answer (the user pressed "check again"). */
  recheck(rootIds: readonly RootId[] = [...this.roots.keys()]): void {
    for (const id of rootIds) this.probe(id);
  }

  stop(): void {
    clearInterval(this.sweepTimer);
    clearTimeout(this.pendingTimer);
    this.sweepTimer = undefined;
    this.pending.clear();
    this.watches.closeAll();
  }

  private startSweeping(): void {
    if (this.sweepTimer || this.sweepIntervalMs <= 0) return;
    this.sweepTimer = setInterval(() => this.sweep(), this.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  private sweep(): void {
    const full = ++this.sweeps % this.fullSweepEvery === 0;
    const ids = full ? [...this.roots.keys()] : [...this.watches.unsure()];
    const slice = (start: number): void => {
      const cpu = process.cpuUsage();
      // Ancestors shared by many roots are looked at once per slice (a slice runs without a break).
      const batch: WalkBatch = new Map();
      for (const id of ids.slice(start, start + this.sliceSize)) {
        if (this.roots.has(id)) this.probe(id, batch);
      }
      const used = process.cpuUsage(cpu);
      this.sweepMicros += used.user + used.system;
      if (start + this.sliceSize < ids.length) setImmediate(() => slice(start + this.sliceSize));
    };
    slice(0);
  }

  /** Follows the root's way with watches first, then looks: a change after the look is always reported. */
  private probe(id: RootId, batch?: WalkBatch): void {
    const root = this.roots.get(id);
    if (!root) return;
    const above = this.watches.follow(id, root.canonicalPath, batch);
    const result = probeRoot(root.canonicalPath, Date.now(), above);
    if (sameAccess(this.access.get(id), result)) {
      this.access.set(id, result);
      return;
    }
    this.access.set(id, result);
    this.changed.set(id, result);
    this.scheduleFlush();
  }

  private schedulePending(ids: Iterable<RootId>): void {
    for (const id of ids) this.pending.add(id);
    if (this.pendingTimer) return;
    this.pendingTimer = setTimeout(() => {
      this.pendingTimer = undefined;
      const ids = [...this.pending];
      this.pending.clear();
      const batch: WalkBatch = new Map();
      for (const pendingId of ids) this.probe(pendingId, batch);
    }, this.debounceMs);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => {
      this.flushScheduled = false;
      const changed = this.changed;
      this.changed = new Map();
      if (changed.size > 0) this.emit('change', changed);
    });
  }

  /** For tests and the benchmark: how many directories are watched (inotify watches). */
  get watcherCount(): number {
    return this.watches.count;
  }

  /** What the safety net has cost so far: sweeps done (every `fullSweepEvery`th re-probed every root), and their CPU time. */
  get sweepCost(): { sweeps: number; cpuMs: number } {
    return { sweeps: this.sweeps, cpuMs: this.sweepMicros / 1000 };
  }

  /** For tests: the directories a root's accessibility is followed through. */
  watchedFor(rootId: RootId): readonly string[] {
    return this.watches.chainOf(rootId);
  }
}
