// The core: one facade the desktop app, the headless server, the proxy and tests all drive.
// Data flows one way: command -> queued edit -> registry (memory, then disk) -> exposure per
// server -> list_changed to the servers whose list changed -> one state update for every UI.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type {
  ActivityEntry,
  ConsentRequest,
  HostState,
  Notice,
  Registry,
  RootId,
  RootRecord,
  RootView,
  ServerId,
  ServerView,
  Settings,
  WireRoot,
} from '../../shared/domain.js';
import type { AddRootsResult } from '../../shared/contract.js';
import { CodedError, toHostError } from '../../shared/result.js';
import { maskTransport, unmaskTransport } from '../../shared/secrets.js';
import { AccessMonitor, type AccessMonitorOptions } from './access-monitor.js';
import { computeExposure, NOTHING, sameExposure, type Exposure } from './exposure.js';
import { canonicalizeRoot, pathToRootUri, type CanonicalRoot } from './file-uri.js';
import * as edits from './registry-edits.js';
import { RegistryStore } from './registry-store.js';
import type { SecretCodec } from './secret-codec.js';
import { ServerConnection, type ConnectionOptions } from './server-connection.js';

export interface RootsHostOptions {
  configDir: string;
  monitor?: AccessMonitorOptions;
  connection?: ConnectionOptions;
  /** Off for one-shot tools that only edit the registry. */
  connectServers?: boolean;
  /** Off for one-shot tools: they need no live view of other processes' edits. */
  watchStore?: boolean;
  /** Minimum gap between two pushed state updates (activity floods must not flood the UI). */
  stateThrottleMs?: number;
  /** Seals env and header values in the registry file (the desktop app: Electron's safeStorage). */
  secrets?: SecretCodec;
}

export interface HostEvents {
  state: [HostState];
  activity: [{ serverId: ServerId; entry: ActivityEntry }];
  /** Fired with the servers that were sent list_changed, for tests and the benchmark. */
  notified: [ServerId[]];
  /** Fired with every server whose effective roots changed, connected or not (the proxy listens). */
  exposure: [ServerId[]];
}

interface QueuedEdit {
  edit: edits.Edit<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const MAX_NOTICES = 20;
/** How long a write may wait for notified servers to re-fetch before it goes to disk anyway. */
const REFETCH_GRACE_MS = 25;

export class RootsHost extends EventEmitter<HostEvents> {
  readonly store: RegistryStore;
  private readonly monitor: AccessMonitor;
  private readonly connections = new Map<ServerId, ServerConnection>();
  private registry: Registry | undefined;
  private exposure = new Map<ServerId, Exposure>();
  private consent: ConsentRequest[] = [];
  private notices: Notice[] = [];
  private queue: QueuedEdit[] = [];
  private flushScheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private readonly refetchWaiters = new Map<ServerId, (() => void)[]>();
  private revision = 0;
  private cachedState: HostState | undefined;
  private cachedRootViews: { registry: Registry; accessVersion: number; views: RootView[] } | undefined;
  private accessVersion = 0;
  private stateTimer: NodeJS.Timeout | undefined;
  private lastStateAt = 0;
  private readonly uriCache = new Map<string, string>();
  private started = false;

  constructor(private readonly options: RootsHostOptions) {
    super();
    this.setMaxListeners(100);
    this.store = new RegistryStore(options.configDir, options.secrets);
    this.monitor = new AccessMonitor(options.monitor);
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const { registry, notices } = this.store.open();
    for (const notice of notices) this.addNotice(notice);
    this.monitor.on('change', () => {
      this.accessVersion++;
      this.recompute();
    });
    this.store.on('external', (next) => this.applyRegistry(next, 'The registry was changed outside the app.'));
    this.store.on('notice', (notice) => this.addNotice(notice));
    this.applyRegistry(registry);
    if (this.options.watchStore !== false) this.store.watch();
  }

  async stop(): Promise<void> {
    await this.flushing;
    this.store.unwatch();
    this.monitor.stop();
    clearTimeout(this.stateTimer);
    await Promise.all([...this.connections.values()].map((connection) => connection.stop()));
    this.connections.clear();
    this.started = false;
  }

  // ---- reads ---------------------------------------------------------------------------------

  getState(): HostState {
    if (this.cachedState) return this.cachedState;
    const registry = this.current();
    const servers: ServerView[] = registry.servers.map((server) => ({
      ...server,
      transport: maskTransport(server.transport),
      status: this.connections.get(server.id)?.status ?? { state: 'disabled', rootsRequestCount: 0, listChangedCount: 0 },
      grantedRootIds: registry.grants[server.id] ?? [],
      effectiveRootIds: [...(this.exposure.get(server.id) ?? NOTHING).rootIds],
    }));
    this.cachedState = {
      revision: this.revision,
      configPath: this.store.path,
      roots: this.rootViews(registry),
      servers,
      consentRequests: this.consent,
      notices: this.notices,
      settings: registry.settings,
    };
    return this.cachedState;
  }

  /** What the server is told when it asks: the answer of roots/list. */
  rootsFor(serverId: ServerId): readonly WireRoot[] {
    return (this.exposure.get(serverId) ?? NOTHING).roots;
  }

  /** Calls a tool on a connected server (tests and diagnostics: "what does the server see?"). */
  callTool(serverId: ServerId, name: string, args?: Record<string, unknown>) {
    return this.connection(serverId).callTool(name, args);
  }

  activity(serverId: ServerId): ActivityEntry[] {
    return this.connection(serverId).log.list();
  }

  get registrySnapshot(): Registry {
    return this.current();
  }

  // ---- commands ------------------------------------------------------------------------------

  async addRoots(paths: string[]): Promise<AddRootsResult> {
    const failed: AddRootsResult['failed'] = [];
    const candidates: CanonicalRoot[] = [];
    for (const input of paths) {
      try {
        candidates.push(await canonicalizeRoot(input));
      } catch (error) {
        failed.push({ input, ...toHostError(error) });
      }
    }
    const { added, duplicates } = await this.apply(edits.addRoots(candidates));
    for (const duplicate of duplicates) {
      failed.push({ input: duplicate.path, code: 'duplicate', message: `"${duplicate.canonicalPath}" is already a root.` });
    }
    const views = this.rootViews(this.current());
    const ids = new Set(added.map((root) => root.id));
    return { added: views.filter((view) => ids.has(view.id)), failed };
  }

  removeRoots(rootIds: RootId[]): Promise<void> {
    return this.apply(edits.removeRoots(rootIds));
  }

  /**
   * The folder of a root now resolves elsewhere (its path, or a parent, was swapped for a symlink)
   * and is hidden until the user looks and confirms: re-resolve the picked path and adopt it.
   */
  async acceptRootTarget(rootId: RootId): Promise<RootView> {
    const root = this.current().roots.find((candidate) => candidate.id === rootId);
    if (!root) throw new CodedError('not-found', `No root with id ${rootId}.`);
    const { canonicalPath } = await canonicalizeRoot(root.path);
    await this.apply(edits.retargetRoot(rootId, canonicalPath));
    this.monitor.recheck([rootId]);
    const view = this.rootViews(this.current()).find((candidate) => candidate.id === rootId);
    if (!view) throw new CodedError('internal', 'The root vanished.');
    return view;
  }

  renameRoot(rootId: RootId, name: string): Promise<void> {
    return this.apply(edits.renameRoot(rootId, name));
  }

  async addServer(input: edits.ServerInput): Promise<ServerView> {
    const server = await this.apply(edits.addServer(input));
    const view = this.getState().servers.find((candidate) => candidate.id === server.id);
    if (!view) throw new CodedError('internal', 'The new server vanished.');
    return view;
  }

  updateServer(serverId: ServerId, patch: Partial<edits.ServerInput>): Promise<unknown> {
    return this.apply((registry) => {
      const previous = edits.findServer(registry, serverId);
      const transport = patch.transport ? unmaskTransport(patch.transport, previous.transport) : undefined;
      return edits.updateServer(serverId, { ...patch, ...(transport ? { transport } : {}) })(registry);
    });
  }

  removeServer(serverId: ServerId): Promise<void> {
    return this.apply(edits.removeServer(serverId));
  }

  async setSharing(serverId: ServerId, sharing: boolean): Promise<void> {
    await this.apply(edits.updateServer(serverId, { sharing }));
  }

  async setEnabled(serverId: ServerId, enabled: boolean): Promise<void> {
    await this.apply(edits.updateServer(serverId, { enabled }));
  }

  async reconnect(serverId: ServerId): Promise<void> {
    await this.connection(serverId).reconnect();
  }

  setGrants(serverIds: ServerId[], rootIds: RootId[], granted: boolean): Promise<void> {
    return this.apply(edits.setGrants(serverIds, rootIds, granted));
  }

  updateSettings(patch: Partial<Settings>): Promise<void> {
    return this.apply(edits.updateSettings(patch));
  }

  dismissConsent(requestId: string): void {
    const before = this.consent.length;
    this.consent = this.consent.filter((request) => request.id !== requestId);
    if (this.consent.length === before) throw new CodedError('not-found', `No consent request ${requestId}.`);
    this.changed();
  }

  dismissNotice(noticeId: string): void {
    const before = this.notices.length;
    this.notices = this.notices.filter((notice) => notice.id !== noticeId);
    if (this.notices.length === before) throw new CodedError('not-found', `No notice ${noticeId}.`);
    this.changed();
  }

  /** Re-probes roots now (the UI's "check again"). */
  recheck(rootIds?: RootId[]): void {
    this.monitor.recheck(rootIds);
  }

  // ---- the edit pipeline ---------------------------------------------------------------------

  /** Queues an edit. Edits queued in the same tick are applied and written together, once. */
  private apply<T>(edit: edits.Edit<T>): Promise<T> {
    if (!this.registry) return Promise.reject(new CodedError('internal', 'The host has not started.'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ edit, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // Flushes run one after another: a batch queued during a flush becomes the next one.
        queueMicrotask(() => {
          this.flushing = this.flushing.then(() => this.flush());
        });
      }
    });
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    const previous = this.current();
    // 1. Apply in memory and tell the servers at once: a revoke must not wait for the disk.
    let outcome = applyEdits(previous, batch);
    for (const { item, error } of outcome.failed) item.reject(error);
    if (outcome.registry === previous) {
      for (const { item, value } of outcome.done) item.resolve(value);
      return;
    }
    const notified = this.applyRegistry(outcome.registry);
    // 2. Let the servers re-fetch before the disk work competes with their round trip (bounded).
    await this.refetchedOrTimeout(notified, REFETCH_GRACE_MS);
    let release: (() => void) | undefined;
    try {
      release = this.store.lock();
      // 3. Another process (the CLI) may have written since: re-apply our edits on its file.
      const fresh = this.store.readFreshOrUndefined();
      if (fresh) {
        outcome = applyEdits(fresh, outcome.done.map(({ item }) => item));
        for (const { item, error } of outcome.failed) item.reject(error);
        this.applyRegistry(outcome.registry);
      }
      await this.store.writeAsync(outcome.registry);
    } catch (error) {
      this.applyRegistry(this.store.readFreshOrUndefined() ?? previous);
      for (const { item } of outcome.done) item.reject(error);
      return;
    } finally {
      release?.();
    }
    for (const { item, value } of outcome.done) item.resolve(value);
  }

  /** Resolves when each server has asked roots/list again, or after `timeoutMs`, whichever is first. */
  private refetchedOrTimeout(serverIds: readonly ServerId[], timeoutMs: number): Promise<void> {
    if (serverIds.length === 0) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      let pending = serverIds.length;
      const timer = setTimeout(resolve, timeoutMs);
      const one = () => {
        if (--pending === 0) {
          clearTimeout(timer);
          resolve();
        }
      };
      for (const id of serverIds) this.refetchWaiters.set(id, [...(this.refetchWaiters.get(id) ?? []), one]);
    });
  }

  /** The one path every registry change takes: edits, external file edits, start-up. Returns the servers sent list_changed. */
  private applyRegistry(next: Registry, reason?: string): ServerId[] {
    const previous = this.registry;
    this.registry = next;
    if (previous?.roots !== next.roots && !sameLocations(previous?.roots, next.roots)) {
      this.monitor.setRoots(next.roots.map((root) => ({ id: root.id, canonicalPath: root.canonicalPath })));
    }
    const { created, restarted } = this.syncConnections(next, reason);
    this.resolveConsent(next);
    // Restarted servers will ask afresh; notifying them as well would only add noise.
    const notified = this.recompute(restarted);
    // New connections start after the exposure is computed, so their first answer is right.
    for (const connection of created) connection.start();
    return notified;
  }

  private syncConnections(next: Registry, reason?: string): { created: ServerConnection[]; restarted: Set<ServerId> } {
    const created: ServerConnection[] = [];
    const restarted = new Set<ServerId>();
    if (this.options.connectServers === false) return { created, restarted };
    const nextIds = new Set(next.servers.map((server) => server.id));
    for (const [id, connection] of this.connections) {
      if (!nextIds.has(id)) {
        this.connections.delete(id);
        void connection.stop();
        this.consent = this.consent.filter((request) => request.serverId !== id);
      }
    }
    for (const server of next.servers) {
      const connection = this.connections.get(server.id);
      if (!connection) {
        const fresh = new ServerConnection(server, this.connectionHooks, { ...this.options.connection, secrets: this.options.secrets });
        this.connections.set(server.id, fresh);
        created.push(fresh);
        restarted.add(server.id);
        continue;
      }
      const before = connection.config;
      if (before === server) continue;
      const needsRestart =
        before.enabled !== server.enabled ||
        before.sharing !== server.sharing ||
        JSON.stringify(before.transport) !== JSON.stringify(server.transport);
      if (needsRestart) {
        restarted.add(server.id);
        void connection.update(server, reason ?? describeChange(before, server));
      } else {
        connection.setRecord(server);
      }
    }
    return { created, restarted };
  }

  private readonly connectionHooks = {
    exposureFor: (serverId: ServerId) => this.exposure.get(serverId) ?? NOTHING,
    rootsRequested: (serverId: ServerId, _answered: readonly WireRoot[], expected: boolean) => {
      const waiters = this.refetchWaiters.get(serverId);
      if (waiters) {
        this.refetchWaiters.delete(serverId);
        for (const waiter of waiters) waiter();
      }
      if (!expected) this.raiseConsentIfNeeded(serverId);
    },
    statusChanged: () => this.changed(),
    activity: (serverId: ServerId, entry: ActivityEntry) => this.emit('activity', { serverId, entry }),
  };

  /** Recomputes every server's effective roots and notifies only those whose list changed. */
  private recompute(skipNotify: ReadonlySet<ServerId> = new Set()): ServerId[] {
    const registry = this.current();
    const next = computeExposure(registry, (id) => this.monitor.get(id), (p) => this.uriOf(p));
    const notified: ServerId[] = [];
    const changed: ServerId[] = [];
    for (const [serverId, exposure] of next) {
      if (sameExposure(this.exposure.get(serverId), exposure)) {
        next.set(serverId, this.exposure.get(serverId) ?? exposure);
        continue;
      }
      changed.push(serverId);
      const connection = this.connections.get(serverId);
      const before = this.exposure.get(serverId);
      if (connection && before && !skipNotify.has(serverId) && connection.rootsChanged(exposure.roots.length === 0 && before.roots.length > 0)) {
        notified.push(serverId);
      }
    }
    this.exposure = next;
    if (changed.length > 0) this.emit('exposure', changed);
    if (notified.length > 0) this.emit('notified', notified);
    this.changed();
    return notified;
  }

  private raiseConsentIfNeeded(serverId: ServerId): void {
    const granted = this.current().grants[serverId] ?? [];
    if (granted.length > 0 || this.consent.some((request) => request.serverId === serverId)) return;
    this.consent = [...this.consent, { id: randomUUID(), serverId, at: Date.now() }];
    this.connections.get(serverId)?.addActivity('consent', 'Asked for roots but has none granted: answered [] and asked you.');
    this.changed();
  }

  /** A consent request is answered once the server has a grant. */
  private resolveConsent(registry: Registry): void {
    const open = this.consent.filter((request) => (registry.grants[request.serverId] ?? []).length === 0);
    if (open.length !== this.consent.length) this.consent = open;
  }

  // ---- state plumbing ------------------------------------------------------------------------

  private changed(): void {
    this.revision++;
    this.cachedState = undefined;
    if (this.stateTimer) return;
    const throttle = this.options.stateThrottleMs ?? 50;
    const wait = Math.max(0, this.lastStateAt + throttle - Date.now());
    this.stateTimer = setTimeout(() => {
      this.stateTimer = undefined;
      this.lastStateAt = Date.now();
      // Building a snapshot of 10,000 roots costs milliseconds: only for someone listening.
      if (this.listenerCount('state') > 0) this.emit('state', this.getState());
    }, wait);
  }

  private rootViews(registry: Registry): RootView[] {
    const cached = this.cachedRootViews;
    if (cached && cached.registry.roots === registry.roots && cached.accessVersion === this.accessVersion) {
      return cached.views;
    }
    const views = registry.roots.map((root) => ({
      ...root,
      uri: this.uriOf(root.canonicalPath),
      access: this.monitor.get(root.id),
      isLink: root.path !== root.canonicalPath,
    }));
    this.cachedRootViews = { registry, accessVersion: this.accessVersion, views };
    return views;
  }

  private uriOf(canonicalPath: string): string {
    let uri = this.uriCache.get(canonicalPath);
    if (uri === undefined) {
      uri = pathToRootUri(canonicalPath);
      this.uriCache.set(canonicalPath, uri);
    }
    return uri;
  }

  private addNotice(notice: Omit<Notice, 'id' | 'at'>): void {
    this.notices = [...this.notices, { ...notice, id: randomUUID(), at: Date.now() }].slice(-MAX_NOTICES);
    this.changed();
  }

  private current(): Registry {
    if (!this.registry) throw new CodedError('internal', 'The host has not started.');
    return this.registry;
  }

  private connection(serverId: ServerId): ServerConnection {
    const connection = this.connections.get(serverId);
    if (!connection) throw new CodedError('not-found', `No server with id ${serverId}.`);
    return connection;
  }
}

/** True when two root lists watch the same folders (a rename or grant changes neither). */
function sameLocations(a: readonly RootRecord[] | undefined, b: readonly RootRecord[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i]?.id !== b[i]?.id || a[i]?.canonicalPath !== b[i]?.canonicalPath) return false;
  }
  return true;
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

function describeChange(before: { enabled: boolean; sharing: boolean }, after: { enabled: boolean; sharing: boolean }): string {
  if (before.enabled !== after.enabled) return after.enabled ? 'Enabled.' : 'Disabled.';
  if (before.sharing !== after.sharing) return after.sharing ? 'Roots sharing turned on.' : 'Roots sharing turned off.';
  return 'The server configuration changed.';
}
