// The core: one facade the desktop app, the headless server, the proxy and tests all drive.
// Data flows one way: command -> queued edit -> registry (memory, then disk) -> exposure per
// server -> list_changed to the servers whose list changed -> one state update for every UI.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type {
  ActivityEntry,
  GrantMode,
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
import { syncConnections } from './connection-sync.js';
import { ConsentRequests } from './consent-requests.js';
import { EditQueue } from './edit-queue.js';
import { computeExposure, NOTHING, sameExposure, type Exposure } from './exposure.js';
import { canonicalizeRoot, type CanonicalRoot } from './file-uri.js';
import { ProxyWatch } from './proxy-watch.js';
import { RefetchWaiters } from './refetch-waiters.js';
import * as edits from './registry-edits.js';
import { RegistryStore } from './registry-store.js';
import { RootViews } from './root-views.js';
import type { SecretCodec } from './secret-codec.js';
import { type ConnectionHooks, type ConnectionOptions, ServerConnection } from './server-connection.js';

export interface RootsHostOptions {
  configDir: string;
  monitor?: AccessMonitorOptions;
  connection?: ConnectionOptions;
  /** Off for one-shot tools that only edit the registry (and for the proxy, which connects itself). */
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

const MAX_NOTICES = 20;

export class RootsHost extends EventEmitter<HostEvents> {
  readonly store: RegistryStore;
  private readonly monitor: AccessMonitor;
  private readonly connections = new Map<ServerId, ServerConnection>();
  private readonly consent = new ConsentRequests();
  private readonly refetch = new RefetchWaiters();
  private readonly views = new RootViews();
  private readonly proxies: ProxyWatch;
  private readonly edits: EditQueue;
  private registry: Registry | undefined;
  private exposure = new Map<ServerId, Exposure>();
  private notices: Notice[] = [];
  private revision = 0;
  private cachedState: HostState | undefined;
  private accessVersion = 0;
  private stateTimer: NodeJS.Timeout | undefined;
  private lastStateAt = 0;
  private started = false;

  constructor(private readonly options: RootsHostOptions) {
    super();
    this.setMaxListeners(100);
    this.store = new RegistryStore(options.configDir, options.secrets);
    this.monitor = new AccessMonitor(options.monitor);
    this.proxies = new ProxyWatch(options.configDir);
    this.edits = new EditQueue({
      store: this.store,
      current: () => this.current(),
      applyRegistry: (next) => this.applyRegistry(next),
      refetched: (ids, timeoutMs) => this.refetch.wait(ids, timeoutMs),
    });
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
    // Proxied servers are shown wherever servers are connected (the app and serve).
    if (this.options.connectServers !== false) {
      this.proxies.on('change', () => this.changed());
      this.proxies.start();
    }
  }

  async stop(): Promise<void> {
    await this.edits.drained();
    this.store.unwatch();
    this.monitor.stop();
    this.proxies.stop();
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
      ...grantedIds(registry.grants[server.id]),
      effectiveRootIds: [...(this.exposure.get(server.id) ?? NOTHING).rootIds],
    }));
    this.cachedState = {
      revision: this.revision,
      configPath: this.store.path,
      roots: this.rootViews(registry),
      servers,
      consentRequests: this.consent.list(),
      notices: this.notices,
      proxies: this.proxies.list(),
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

  setGrants(serverIds: ServerId[], rootIds: RootId[], granted: boolean, mode?: GrantMode): Promise<edits.GrantChange> {
    return this.apply(edits.setGrants(serverIds, rootIds, granted, mode));
  }

  updateSettings(patch: Partial<Settings>): Promise<void> {
    return this.apply(edits.updateSettings(patch));
  }

  dismissConsent(requestId: string): void {
    this.consent.dismiss(requestId);
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
    // An id the registry no longer has (removed meanwhile) says so, as every other root edit does.
    const known = new Set(this.current().roots.map((root) => root.id));
    const unknown = rootIds?.find((rootId) => !known.has(rootId));
    if (unknown !== undefined) throw new CodedError('not-found', `No root with id ${unknown}.`);
    this.monitor.recheck(rootIds);
  }

  // ---- the one path of every change ---------------------------------------------------------

  private apply<T>(edit: edits.Edit<T>): Promise<T> {
    if (!this.registry) return Promise.reject(new CodedError('internal', 'The host has not started.'));
    return this.edits.apply(edit);
  }

  /** The one path every registry change takes: edits, external file edits, start-up. Returns the servers sent list_changed. */
  private applyRegistry(next: Registry, reason?: string): ServerId[] {
    const previous = this.registry;
    this.registry = next;
    if (previous?.roots !== next.roots && !sameLocations(previous?.roots, next.roots)) {
      this.monitor.setRoots(next.roots.map((root) => ({ id: root.id, canonicalPath: root.canonicalPath })));
    }
    const sync =
      this.options.connectServers === false
        ? { created: [], restarted: new Set<ServerId>(), removed: [] }
        : syncConnections(this.connections, next, this.connectionHooks, { ...this.options.connection, secrets: this.options.secrets }, reason);
    for (const id of sync.removed) this.refetch.forget(id);
    this.consent.settle(next);
    // Restarted servers will ask afresh; notifying them as well would only add noise.
    const notified = this.recompute(sync.restarted);
    // New connections start after the exposure is computed, so their first answer is right.
    for (const connection of sync.created) connection.start();
    return notified;
  }

  private readonly connectionHooks: ConnectionHooks = {
    exposureFor: (serverId: ServerId) => this.exposure.get(serverId) ?? NOTHING,
    rootsRequested: (serverId: ServerId, _answered: readonly WireRoot[], expected: boolean) => {
      this.refetch.arrived(serverId);
      if (!expected) this.raiseConsentIfNeeded(serverId);
    },
    statusChanged: () => this.changed(),
    activity: (serverId: ServerId, entry: ActivityEntry) => this.emit('activity', { serverId, entry }),
  };

  /** Recomputes every server's effective roots and notifies only those whose list changed. */
  private recompute(skipNotify: ReadonlySet<ServerId> = new Set()): ServerId[] {
    const registry = this.current();
    const next = computeExposure(registry, (id) => this.monitor.get(id), (p) => this.views.uriOf(p));
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
    if (!this.consent.raiseIfUngranted(serverId, this.current())) return;
    this.connections.get(serverId)?.addActivity('consent', 'Asked for roots but has none granted: answered [] and asked you.');
    this.changed();
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
    return this.views.views(registry.roots, this.accessVersion, (id) => this.monitor.get(id));
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

// The same arrays for the same grants object: the UI builds its lookup Sets once per array.
const grantedIdsCache = new WeakMap<Readonly<Record<RootId, GrantMode>>, { grantedRootIds: RootId[]; readOnlyRootIds: RootId[] }>();
const NO_GRANTS = Object.freeze({ grantedRootIds: [] as RootId[], readOnlyRootIds: [] as RootId[] });

function grantedIds(granted: Readonly<Record<RootId, GrantMode>> | undefined): { grantedRootIds: RootId[]; readOnlyRootIds: RootId[] } {
  if (!granted) return NO_GRANTS;
  let ids = grantedIdsCache.get(granted);
  if (!ids) {
    const entries = Object.entries(granted);
    ids = {
      grantedRootIds: entries.map(([rootId]) => rootId),
      readOnlyRootIds: entries.filter(([, mode]) => mode === 'read-only').map(([rootId]) => rootId),
    };
    grantedIdsCache.set(granted, ids);
  }
  return ids;
}
