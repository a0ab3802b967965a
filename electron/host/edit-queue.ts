// The edit pipeline. Edits queued in the same tick become one batch: applied in memory and told
// to the servers first (a revoke must not wait for the disk), then written once under the
// cross-process lock, re-applied on top of whatever another process (the CLI) wrote meanwhile.
import type { Registry, ServerId } from '../../shared/domain.js';
import type { Edit } from './registry-edits.js';
import type { RegistryStore } from './registry-store.js';

/** How long a write may wait for notified servers to re-fetch before it goes to disk anyway. */
const REFETCH_GRACE_MS = 25;

interface QueuedEdit {
  edit: Edit<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface EditQueueDeps {
  store: RegistryStore;
  current(): Registry;
  /** Makes `next` the registry everyone sees; returns the servers that were sent list_changed. */
  applyRegistry(next: Registry): ServerId[];
  /** Resolves when those servers have asked roots/list again, or after `timeoutMs`. */
  refetched(serverIds: readonly ServerId[], timeoutMs: number): Promise<void>;
}

export class EditQueue {
  private queue: QueuedEdit[] = [];
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: EditQueueDeps) {}

  apply<T>(edit: Edit<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ edit, resolve: resolve as (value: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // Flushes run one after another: a batch queued during a flush becomes the next one.
      queueMicrotask(() => {
        this.flushing = this.flushing.then(() => this.flush());
      });
    });
  }

  /** Resolves when every queued edit has been written (or has failed). */
  drained(): Promise<void> {
    return this.flushing;
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    const { store, current, applyRegistry, refetched } = this.deps;
    const previous = current();
    // 1. In memory, and the servers hear of it.
    let outcome = applyEdits(previous, batch);
    for (const { item, error } of outcome.failed) item.reject(error);
    if (outcome.registry === previous) {
      for (const { item, value } of outcome.done) item.resolve(value);
      return;
    }
    const notified = applyRegistry(outcome.registry);
    // 2. Let them re-fetch before the disk work competes with their round trip (bounded).
    await refetched(notified, REFETCH_GRACE_MS);
    let release: (() => void) | undefined;
    try {
      release = store.lock();
      // 3. Another process may have written since: our edits go on top of its file.
      const fresh = store.readFreshOrUndefined();
      if (fresh) {
        outcome = applyEdits(fresh, outcome.done.map(({ item }) => item));
        for (const { item, error } of outcome.failed) item.reject(error);
        applyRegistry(outcome.registry);
      }
      await store.writeAsync(outcome.registry);
    } catch (error) {
      applyRegistry(store.readFreshOrUndefined() ?? previous);
      for (const { item } of outcome.done) item.reject(error);
      return;
    } finally {
      release?.();
    }
    for (const { item, value } of outcome.done) item.resolve(value);
  }
}

/** Runs queued edits in order on a base; an edit that throws is set aside and the rest go on. */
function applyEdits(
  base: Registry,
  items: QueuedEdit[],
): { registry: Registry; done: { item: QueuedEdit; value: unknown }[]; failed: { item: QueuedEdit; error: unknown }[] } {
  let registry = base;
  const done: { item: QueuedEdit; value: unknown }[] = [];
  const failed: { item: QueuedEdit; error: unknown }[] = [];
  for (const item of items) {
    try {
      const result = item.edit(registry);
      registry = result.registry;
      done.push({ item, value: result.value });
    } catch (error) {
      failed.push({ item, error });
    }
  }
  return { registry, done, failed };
}
