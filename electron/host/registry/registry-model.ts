// The registry's one writer. Every change enters ONE ordered queue: the initial load, local edits
// and other processes' writes to the file. Nothing else assigns the registry in memory, so nothing
// can race with an edit: the app's connections, the proxy, `serve` and the UI only consume the
// snapshots this emits.
//
// A flush with edits:
//   1. takes the cross-process lock (without blocking the event loop);
//   2. reads the file if another process changed it since our last look: that version, not our
//      memory, is the base, so another process's edit is never lost;
//   3. applies the queued edits in order on that base (an edit that throws is rejected alone);
//   4. publishes the result (servers hear of a revoke before the disk is touched), with the version
//      another process wrote when there was one, so each part is told with who made it;
//   5. writes the file, then releases the lock. A failed write publishes the file's version again
//      and rejects the edits: memory, disk and what servers were told never disagree for long.
// A flush without edits follows the file: a valid new version is published; an invalid one is
// reported once and never overwritten silently (it is backed up before the next write replaces it);
// a read that failed (EIO, EMFILE) is retried, not forgotten.
import { EventEmitter } from 'node:events';
import type { ChangeSource, Registry } from '../../../shared/domain.js';
import { CodedError } from '../../../shared/result.js';
import { FolderWatch } from './folder-watch.js';
import type { Edit } from './registry-edits.js';
import { shareUnchanged } from './registry-sharing.js';
import { CONFIG_FILE, RegistryContentError, RegistryStore, type StoreNotice } from './registry-store.js';
import type { SecretCodec } from './secret-codec.js';
import type { WriterKind } from './registry-writer.js';

export type ChangeOrigin = 'load' | 'edit' | 'external' | 'revert';

export interface RegistryChange {
  registry: Registry;
  previous: Registry | undefined;
  origin: ChangeOrigin;
  /** Who made it: this process ('this-app') for load, edit and revert; for 'external', what the file says. */
  source: ChangeSource;
  /**
   * An edit that went on top of a version another process wrote since our last look: `previous` to
   * `base` is that process's change (made by `source`), `base` to `registry` this one's.
   */
  rebased?: { base: Registry; source: ChangeSource } | undefined;
}

export interface RegistryModelOptions {
  configDir: string;
  /** Seals env and header values on disk (the desktop app: Electron's safeStorage). */
  secrets?: SecretCodec | undefined;
  /** 'follower' (a proxy, `status`): reads and follows the file, never writes it or takes its lock. */
  role?: 'writer' | 'follower';
  /** Who this writer says it is in the file (registry-writer.ts): readers name the CLI's changes as such. */
  writer?: WriterKind;
  /** Follow other processes' writes as they happen (off for one-shot CLI commands). */
  follow?: boolean;
  /** How often the file is looked at without an event (re-arms a watch that died). */
  pollMs?: number;
  /**
   * Runs after an edit is published and before it is written, under the lock: the app lets the
   * servers it notified re-fetch first, so the disk does not compete with their round trip.
   *
   * Why the writer waits for its readers rather than writing at once (#30 item 15): the write (a
   * temporary file, fsync, rename, and each server's view file, ~1.6 ms of synchronous work) lands
   * on the event loop the servers' roots/list requests need, and on a 2-core machine on their CPU
   * too. Measured in pairs (BENCHMARKS.md section 2): written at once, the edit -> re-fetch round
   * trip was 2.13-2.25x a bare client's; behind the wait 1.58-1.64x. The wait ends as soon as every
   * notified server has re-fetched (its length mattered little for one server: a single timer turn
   * kept most of the gain), and at 25 ms at most. What it costs: the edit's promise and the registry
   * lock are held that much longer, so another process's edit (the CLI) may wait up to 25 ms more.
   * Nothing is lost meanwhile: memory and the servers already hold the edit, and a failed write
   * reverts both.
   */
  beforePersist?: () => Promise<void>;
}

export interface RegistryModelEvents {
  change: [RegistryChange];
  notice: [StoreNotice];
}

interface QueuedEdit {
  edit: Edit<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const IO_RETRY_MS = [50, 200, 1000];

export class RegistryModel extends EventEmitter<RegistryModelEvents> {
  readonly store: RegistryStore;
  private registry: Registry | undefined;
  private edits: QueuedEdit[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();
  private watch: FolderWatch | undefined;
  private readOnlyReason: string | undefined;
  /** The reason already reported for the file as it is now, so a bad file is reported once. */
  private reportedFor: string | undefined;
  private ioRetries = 0;
  private ioTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Who wrote the version the current flush's edits go on (set by baseUnderLock). */
  private baseSource: Exclude<ChangeSource, 'this-app'> = 'other';

  constructor(private readonly options: RegistryModelOptions) {
    super();
    this.setMaxListeners(100);
    this.store = new RegistryStore(options.configDir, options.secrets, options.writer);
  }

  /** The registry as last published. Throws before `open`. */
  get current(): Registry {
    if (!this.registry) throw new CodedError('internal', 'The registry has not been loaded.');
    return this.registry;
  }

  get isOpen(): boolean {
    return this.registry !== undefined;
  }

  /** Why edits are refused right now, if they are (a newer version's file, no lock possible). */
  get readOnly(): string | undefined {
    return this.readOnlyReason;
  }

  /** The initial load: the first input of the queue. Notices about the file are returned, not emitted. */
  open(): Promise<StoreNotice[]> {
    const loaded = this.enqueue(async () => {
      const writer = this.options.role !== 'follower';
      const { registry, notices, newerVersion } = this.store.open({ repair: writer });
      if (writer && newerVersion) this.readOnlyReason = newerVersion;
      this.publish(registry, 'load');
      return notices;
    });
    if (this.options.follow) {
      this.watch = new FolderWatch(this.options.configDir, { names: [CONFIG_FILE], pollMs: this.options.pollMs ?? 2000 });
      const follow = () => this.follow();
      this.watch.on('change', follow);
      this.watch.on('poll', follow);
      void loaded.then(() => this.watch?.start(), () => undefined);
    }
    return loaded;
  }

  /** Queues an edit; resolves with its value once it is on disk (and told to every consumer). */
  apply<T>(edit: Edit<T>): Promise<T> {
    if (this.options.role === 'follower') return Promise.reject(new CodedError('internal', 'This process only reads the registry.'));
    if (!this.registry || this.closed) return Promise.reject(new CodedError('internal', 'The registry is not open.'));
    return new Promise<T>((resolve, reject) => {
      this.edits.push({ edit, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Looks at the file now (another process may have written it). */
  follow(): void {
    if (!this.registry || this.closed) return;
    this.schedule();
  }

  /** Resolves when every input queued so far (this tick included) has been handled. */
  async drained(): Promise<void> {
    for (;;) {
      const chain = this.chain;
      await chain;
      // An input queued in this tick becomes a flush in a microtask: let it join the chain first.
      await Promise.resolve();
      if (chain === this.chain && !this.scheduled) return;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watch?.stop();
    clearTimeout(this.ioTimer);
    await this.chain;
  }

  // ---- the queue -----------------------------------------------------------------------------

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Inputs queued in the same tick become one flush; flushes run one after another. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      void this.enqueue(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    const edits = this.edits;
    this.edits = [];
    if (edits.length === 0) {
      this.followFile();
      return;
    }
    await this.flushEdits(edits);
  }

  private async flushEdits(edits: QueuedEdit[]): Promise<void> {
    let release: (() => void) | undefined;
    try {
      if (this.readOnlyReason) throw new CodedError('store-failed', this.readOnlyReason);
      release = await this.store.lock();
      this.baseSource = 'other';
      const base = this.baseUnderLock();
      const external = base !== this.registry;
      const outcome = applyEdits(base, edits);
      for (const { item, error } of outcome.failed) item.reject(error);
      if (outcome.registry === base) {
        if (external) this.publish(base, 'external', this.baseSource);
        for (const { item, value } of outcome.done) item.resolve(value);
        return;
      }
      this.publish(outcome.registry, 'edit', 'this-app', external ? { base, source: this.baseSource } : undefined);
      await this.options.beforePersist?.();
      try {
        for (const notice of await this.store.write(outcome.registry)) this.emit('notice', notice);
      } catch (error) {
        // Not on disk: memory and the servers go back to what the file holds.
        this.publish(base, 'revert');
        for (const { item } of outcome.done) item.reject(error);
        return;
      }
      for (const { item, value } of outcome.done) item.resolve(value);
    } catch (error) {
      for (const item of edits) item.reject(error);
    } finally {
      release?.();
    }
  }

  /** The version edits go on top of: the file as it is now if another process changed it, else memory. */
  private baseUnderLock(): Registry {
    const check = this.store.check();
    switch (check.kind) {
      case 'read':
        this.noticeAll(check.notices);
        this.reportedFor = undefined;
        this.baseSource = check.source;
        return shareUnchanged(this.registry, check.registry);
      case 'unchanged':
        // Seen before and invalid (a hand edit gone wrong): it is about to be replaced, keep it first.
        if (this.store.invalidOnDisk) this.keepInvalid(this.store.invalidOnDisk.text, this.store.invalidOnDisk.reason);
        return this.current;
      case 'missing':
        // The file (or its folder) was removed; our copy is complete and is written back.
        return this.current;
      case 'io-error':
        throw new CodedError('store-failed', `The registry could not be read before saving: ${check.error.message}`);
      case 'unreadable':
        if (!(check.error instanceof RegistryContentError)) {
          // Not a regular file (a directory, a FIFO, a device): nothing we may replace.
          throw new CodedError('store-failed', `${check.error.message} Nothing was saved; move it out of the way.`);
        }
        if (check.error.kind === 'newer') {
          this.becomeReadOnly(check.error.message);
          throw new CodedError('store-failed', `${check.error.message} Changes will not be saved.`);
        }
        // An invalid hand edit is about to be replaced: keep it first, and say where.
        this.keepInvalid(check.text, check.error.message);
        return this.current;
    }
  }

  private followFile(): void {
    const check = this.store.check();
    switch (check.kind) {
      case 'unchanged':
      case 'missing':
        return;
      case 'read':
        this.ioRetries = 0;
        this.reportedFor = undefined;
        if (this.readOnlyReason && this.options.role !== 'follower') this.readOnlyReason = undefined;
        this.noticeAll(check.notices);
        // What another process left as it was keeps its identity: caches downstream stay valid.
        this.publish(shareUnchanged(this.registry, check.registry), 'external', check.source);
        if (this.options.role !== 'follower' && !this.store.viewsCurrent()) this.refreshViews();
        return;
      case 'io-error':
        // Not recorded as seen: it is read again, soon, and by the next poll at the latest.
        this.retryAfterIoError();
        return;
      case 'unreadable': {
        if (check.error instanceof RegistryContentError && check.error.kind === 'newer') {
          this.becomeReadOnly(check.error.message);
          return;
        }
        this.reportOnce(check.error.message, {
          level: 'warning',
          code: 'store-external-invalid',
          message: `An outside edit of the registry was ignored: ${check.error.message}. It will be kept as a backup if the app saves a change.`,
        });
      }
    }
  }

  /** Another process wrote the file without views (a hand edit, an older version): the writer makes them. */
  private refreshViews(): void {
    void this.enqueue(async () => {
      let release: (() => void) | undefined;
      try {
        release = await this.store.lock();
        this.store.refreshViews(this.current);
      } catch {
        // Busy or read-only: proxies read config.json itself meanwhile.
      } finally {
        release?.();
      }
    });
  }

  private keepInvalid(text: string | undefined, reason: string): void {
    const backup = text !== undefined ? this.store.keepBackup(text) : undefined;
    this.emit('notice', {
      level: 'warning',
      code: 'store-invalid-replaced',
      message: `The registry file held an invalid edit (${reason}); it was replaced by the app's version${backup ? ` and kept as ${backup}` : ''}.`,
    });
    this.reportedFor = undefined;
  }

  private becomeReadOnly(reason: string): void {
    if (this.options.role !== 'follower') this.readOnlyReason = reason;
    this.reportOnce(reason, { level: 'error', code: 'store-newer', message: `${reason} Changes will not be saved.` });
  }

  private retryAfterIoError(): void {
    const wait = IO_RETRY_MS[Math.min(this.ioRetries++, IO_RETRY_MS.length - 1)] as number;
    clearTimeout(this.ioTimer);
    this.ioTimer = setTimeout(() => this.follow(), wait);
    this.ioTimer.unref();
  }

  private reportOnce(key: string, notice: StoreNotice): void {
    if (this.reportedFor === key) return;
    this.reportedFor = key;
    this.emit('notice', notice);
  }

  private noticeAll(notices: readonly StoreNotice[]): void {
    for (const notice of notices) this.emit('notice', notice);
  }

  private publish(registry: Registry, origin: ChangeOrigin, source: ChangeSource = 'this-app', rebased?: RegistryChange['rebased']): void {
    const previous = this.registry;
    this.registry = registry;
    this.emit('change', { registry, previous, origin, source, ...(rebased ? { rebased } : {}) });
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
