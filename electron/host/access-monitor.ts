// Watches every root's accessibility. A watcher per healthy root catches deletes, renames,
// chmods and unmounts at once; a periodic sweep catches what inotify cannot see (a parent
// renamed, a missing folder coming back). Changes are coalesced into one `change` event.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { RootAccess, RootId } from '../../shared/domain.js';
import { probeRoot, sameAccess } from './access-probe.js';

export interface MonitoredRoot {
  id: RootId;
  canonicalPath: string;
}

export interface AccessMonitorOptions {
  /** How often every root is re-probed. Detection of what watchers miss is bounded by this. */
  sweepIntervalMs?: number;
  /** Watcher events for one root within this window cause one probe. */
  debounceMs?: number;
  /** Roots probed per slice of a sweep before yielding to the event loop. */
  sliceSize?: number;
}

export class AccessMonitor extends EventEmitter<{ change: [ReadonlyMap<RootId, RootAccess>] }> {
  private readonly roots = new Map<RootId, MonitoredRoot>();
  private readonly access = new Map<RootId, RootAccess>();
  private readonly watchers = new Map<RootId, fs.FSWatcher>();
  private readonly pending = new Set<RootId>();
  private pendingTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private changed = new Map<RootId, RootAccess>();
  private flushScheduled = false;
  private readonly sweepIntervalMs: number;
  private readonly debounceMs: number;
  private readonly sliceSize: number;

  constructor(options: AccessMonitorOptions = {}) {
    super();
    this.sweepIntervalMs = options.sweepIntervalMs ?? 1000;
    this.debounceMs = options.debounceMs ?? 15;
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
        this.unwatch(id);
        this.roots.delete(id);
        this.access.delete(id);
      }
    }
    for (const root of roots) {
      const previous = this.roots.get(root.id);
      if (previous?.canonicalPath === root.canonicalPath) continue;
      this.unwatch(root.id);
      this.roots.set(root.id, root);
      this.probe(root.id);
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
    for (const id of [...this.watchers.keys()]) this.unwatch(id);
  }

  private startSweeping(): void {
    if (this.sweepTimer || this.sweepIntervalMs <= 0) return;
    this.sweepTimer = setInterval(() => this.sweep(), this.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  private sweep(): void {
    const ids = [...this.roots.keys()];
    const slice = (start: number): void => {
      for (const id of ids.slice(start, start + this.sliceSize)) {
        if (this.roots.has(id)) this.probe(id);
      }
      if (start + this.sliceSize < ids.length) setImmediate(() => slice(start + this.sliceSize));
    };
    slice(0);
  }

  private probe(id: RootId): void {
    const root = this.roots.get(id);
    if (!root) return;
    const result = probeRoot(root.canonicalPath);
    if (result.state === 'ok') this.ensureWatched(root);
    else this.unwatch(id);
    if (sameAccess(this.access.get(id), result)) {
      this.access.set(id, result);
      return;
    }
    this.access.set(id, result);
    this.changed.set(id, result);
    this.scheduleFlush();
  }

  private ensureWatched(root: MonitoredRoot): void {
    if (this.watchers.has(root.id)) return;
    try {
      const watcher = fs.watch(root.canonicalPath, { persistent: false }, () => this.schedulePending(root.id));
      watcher.on('error', () => {
        this.unwatch(root.id);
        this.schedulePending(root.id);
      });
      this.watchers.set(root.id, watcher);
    } catch {
      // Out of inotify watches or a race with deletion: the sweep still covers this root.
    }
  }

  private unwatch(id: RootId): void {
    const watcher = this.watchers.get(id);
    if (!watcher) return;
    watcher.close();
    this.watchers.delete(id);
  }

  private schedulePending(id: RootId): void {
    this.pending.add(id);
    if (this.pendingTimer) return;
    this.pendingTimer = setTimeout(() => {
      this.pendingTimer = undefined;
      const ids = [...this.pending];
      this.pending.clear();
      for (const pendingId of ids) this.probe(pendingId);
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

  /** For tests and the benchmark: how many roots currently hold a watcher. */
  get watcherCount(): number {
    return this.watchers.size;
  }
}
