// The app's host, for the desktop app and `serve` alike: the one registry writer, who sees what,
// one MCP connection per server, and the state every UI renders. It wires those parts together and
// owns nothing they own. Data flows one way:
//   command or outside edit -> RegistryModel (one ordered queue) -> registry snapshot
//   -> connections follow the config -> exposure recomputed -> the roots-change policy per server
//   -> one throttled state update for every UI.
// The CLI and the proxy use only the parts they need (registry-commands.ts, run-proxy.ts).
import os from 'node:os';
import type { NetworkRecordRow } from '../../shared/network-record.js';
import { netChanges, recordBounds, type FileDiff, type ServerChanges } from '../../shared/file-record.js';
import { fileDiff } from './audit-diff.js';
import { recordEntries } from './history-records.js';
import { sensitiveFolder } from './sandbox/sensitive-folders.js';
import { readFileReads, readFileRecord } from './sandbox/audit/file-record.js';
import { networkRecordFile, readNetworkRecord } from './sandbox/egress/network-record.js';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { AddRootsResult, UndoTicket } from '../../shared/contract.js';
import type {
  ActivityEntry,
  ChangeSource,
  GrantMode,
  HostEnvironment,
  HostState,
  Notice,
  Registry,
  RootId,
  RootView,
  ServerActivityEntry,
  ServerId,
  ServerStatus,
  ServerView,
  Settings,
  WireRoot,
} from '../../shared/domain.js';
import { CodedError } from '../../shared/result.js';
import { type AccessMonitorOptions } from './access/access-monitor.js';
import { AppConnections } from './connections/app-connections.js';
import { appStatusFile, type AppKind, type AppStatus } from './status/app-status.js';
import { ConsentRequests } from './connections/consent-requests.js';
import { ExposureTracker, type ExposureChange } from './access/exposure-tracker.js';
import { grantChanges } from './connections/grant-changes.js';
import { HostStateView } from './status/host-state.js';
import { ProxyWatch } from './status/proxy-watch.js';
import { RefetchWaiters } from './connections/refetch-waiters.js';
import { sandboxSupport } from './sandbox/probe-cache.js';
import { RegistryCommands } from './registry/registry-commands.js';
import { UndoBook } from './registry/undo-book.js';
import type { ServerInput, GrantChange } from './registry/registry-edits.js';
import { RegistryModel, type RegistryChange } from './registry/registry-model.js';
import type { StoreNotice } from './registry/registry-store.js';
import type { SecretCodec } from './registry/secret-codec.js';
import { StatusFileWriter } from './status/status-file.js';
import type { ConnectionHooks, ConnectionOptions } from './connections/server-connection.js';

export interface RootsHostOptions {
  configDir: string;
  monitor?: AccessMonitorOptions;
  connection?: ConnectionOptions;
  /** Minimum gap between two pushed state updates (activity floods must not flood the UI). */
  stateThrottleMs?: number;
  /** How often the registry file is looked at without a watch event. */
  registryPollMs?: number;
  /** Seals env and header values in the registry file (the desktop app: Electron's safeStorage). */
  secrets?: SecretCodec;
  /** false: servers are shown but never started (contract and UI tests that add commands they must not run). */
  runServers?: boolean;
  /** Which PATH and npx the servers are started with, for the UI (the desktop app sets it). */
  environment?: HostEnvironment;
  /** Publishes the servers' live status for `mcp-roots status` as this kind of process (default 'app'); false: not at all. */
  publishStatusAs?: AppKind | false;
}

export interface HostEvents {
  state: [HostState];
  activity: [{ serverId: ServerId; entry: ActivityEntry }];
  /** Servers sent list_changed or restarted because their roots changed (tests and the benchmark). */
  notified: [ServerId[]];
  /** Every server whose effective roots changed, connected or not. */
  exposure: [ServerId[]];
  /** A server's status changed, at each change ('state' is the throttled view of all of it). */
  status: [ServerId];
}

const MAX_NOTICES = 20;
/** How long a write may wait for notified servers to re-fetch before it goes to disk anyway (why it waits: registry-model.ts beforePersist). */
const REFETCH_GRACE_MS = 25;

export class RootsHost extends EventEmitter<HostEvents> {
  readonly model: RegistryModel;
  readonly commands: RegistryCommands;
  private readonly undoBook: UndoBook;
  private readonly tracker: ExposureTracker;
  private readonly connections: AppConnections;
  private readonly stateView: HostStateView;
  private readonly consent = new ConsentRequests();
  private readonly refetch = new RefetchWaiters();
  private readonly proxies: ProxyWatch;
  private notices: Notice[] = [];
  /** <configDir>/running/<kind>-<pid>.json while started (app-status.ts). */
  private statusFile: StatusFileWriter<AppStatus> | undefined;
  /** Servers reached by the latest registry change: the write waits (briefly) for them to re-fetch. */
  private lastReached: ServerId[] = [];
  /**
   * While a registry change is handled: what its connections tell this host's listeners (activity
   * entries such as the grants and a restart, status changes such as 'applying-grants'), told once
   * its servers have been. Each log and status has its change at once and in order; only the
   * listeners (the window's IPC, serve's sockets, which word and encode each entry, the status file)
   * hear of them after the list_changed is on its pipe, not before (BENCHMARKS.md section 2).
   */
  private heldForListeners: (() => void)[] | undefined;
  /**
   * A registry change's grants entries, logged once its servers have been told, or before any
   * other entry a connection adds meanwhile (a restart): each log still reads what changed, then
   * how it reached the server. Worked out before the notify, they took ~0.03 ms of it (0.94 of the
   * round trip without them, BENCHMARKS.md section 2).
   */
  private pendingGrantLog: (() => void) | undefined;
  private started = false;

  constructor(private readonly options: RootsHostOptions) {
    super();
    this.setMaxListeners(100);
    this.model = new RegistryModel({
      configDir: options.configDir,
      secrets: options.secrets,
      follow: true,
      writer: options.publishStatusAs === 'serve' ? 'serve' : 'app',
      ...(options.registryPollMs !== undefined ? { pollMs: options.registryPollMs } : {}),
      beforePersist: () => this.refetch.wait(this.lastReached, REFETCH_GRACE_MS),
    });
    this.commands = new RegistryCommands(this.model);
    this.undoBook = new UndoBook(this.model, this.commands);
    this.tracker = new ExposureTracker({ ...(options.monitor ? { monitor: options.monitor } : {}) });
    this.connections = new AppConnections(this.connectionHooks, {
      dataDir: options.configDir,
      recordBounds: () => recordBounds(this.model.current.settings),
      ...options.connection,
      secrets: options.secrets,
      ...(options.runServers === false ? { dormant: true } : {}),
    });
    this.proxies = new ProxyWatch(options.configDir);
    this.stateView = new HostStateView(
      {
        configPath: this.model.store.path,
        registry: () => this.model.current,
        rootViews: (registry) => this.rootViews(registry),
        exposure: (serverId) => this.tracker.get(serverId),
        status: (serverId) => this.connections.get(serverId)?.status,
        changeForecast: (serverId) => this.connections.get(serverId)?.changeForecast(this.tracker.get(serverId)),
        consentRequests: () => this.consent.list(),
        notices: () => this.notices,
        proxies: () => this.proxies.list(),
        environment: options.environment,
        secrets: options.secrets,
      },
      options.stateThrottleMs ?? 50,
    );
    this.stateView.on('state', (state) => this.emit('state', state));
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // First of the model's listeners: the servers are told before the undo book counts revokes (it
    // reads every grant of both versions, BENCHMARKS.md section 2).
    this.model.prependListener('change', (change) => this.registryChanged(change));
    this.model.on('notice', (notice) => this.addNotice(notice));
    this.tracker.on('access', () => this.stateView.changed());
    // Accessibility changes arrive here; registry changes are handled in order in registryChanged.
    this.tracker.on('change', (change) => this.exposureChanged(change, new Set()));
    // The sandbox probe (a trial bwrap, once per boot): now, not at the first server's start.
    void sandboxSupport(this.configDir);
    for (const notice of await this.model.open()) this.addNotice(notice);
    this.proxies.on('change', () => this.stateView.changed());
    this.proxies.start();
    // A host that runs no servers has nothing true to say about them.
    const kind = this.options.runServers === false ? false : (this.options.publishStatusAs ?? 'app');
    if (kind !== false) {
      const now = Date.now();
      this.statusFile = new StatusFileWriter<AppStatus>(
        appStatusFile(this.options.configDir, kind, process.pid),
        { pid: process.pid, kind, startedAt: now, updatedAt: now, servers: this.serverStatuses() },
        { refresh: () => ({ servers: this.serverStatuses() }) },
      );
    }
  }

  async stop(): Promise<void> {
    await this.model.close();
    this.tracker.stop();
    this.proxies.stop();
    this.stateView.stop();
    await this.connections.stopAll();
    this.statusFile?.remove();
    this.statusFile = undefined;
    this.started = false;
  }

  // ---- reads ---------------------------------------------------------------------------------

  getState(): HostState {
    return this.stateView.get();
  }

  /** What the server is told when it asks: the answer of roots/list. */
  rootsFor(serverId: ServerId): readonly WireRoot[] {
    return this.tracker.get(serverId).roots;
  }

  /** Calls a tool on a connected server (tests and diagnostics: "what does the server see?"). */
  callTool(serverId: ServerId, name: string, args?: Record<string, unknown>) {
    return this.connection(serverId).callTool(name, args);
  }

  activity(serverId: ServerId): ActivityEntry[] {
    return this.connection(serverId).log.list();
  }

  /** What the server did in its grants since `since`, as its file views recorded it (audit/file-record.ts). */
  changes(serverId: ServerId, since: number): ServerChanges {
    this.connection(serverId);
    const entries = readFileRecord(this.options.configDir, serverId, since);
    return {
      changes: netChanges(entries),
      refused: entries.filter((entry) => entry.rule !== undefined).slice(-200),
      filesRead: readFileReads(this.options.configDir, serverId).filter((row) => row.last >= since).length,
      dropped: entries.reduce((sum, entry) => sum + (entry.op === 'dropped' ? (entry.count ?? 0) : 0), 0),
    };
  }

  /** One recorded file's diff against its content before the server's first change (audit-diff.ts). */
  diff(serverId: ServerId, file: string): FileDiff {
    this.connection(serverId);
    return fileDiff(this.options.configDir, serverId, file);
  }

  /** The server's record of network destinations, as its runs (the app's, its proxies') keep it in the data folder. */
  networkRecord(serverId: ServerId): NetworkRecordRow[] {
    this.connection(serverId);
    return readNetworkRecord(networkRecordFile(this.options.configDir, serverId));
  }

  /** Every server's records as History entries (history-records.ts). */
  records(since: number): ServerActivityEntry[] {
    return recordEntries(this.options.configDir, this.model.current.servers.map((server) => server.id), since);
  }

  /** Every server's log, in the registry's server order (a removed server's log went with it). */
  history(): ServerActivityEntry[] {
    return this.model.current.servers.flatMap((server) => this.connections.get(server.id)?.log.list().map((entry) => ({ serverId: server.id, entry })) ?? []);
  }

  get registrySnapshot(): Registry {
    return this.model.current;
  }

  get configDir(): string {
    return this.options.configDir;
  }

  /** The registry file (its path, for UIs and tests). */
  get store() {
    return this.model.store;
  }

  // ---- commands ------------------------------------------------------------------------------

  async addRoots(paths: string[]): Promise<AddRootsResult> {
    const { added, failed } = await this.commands.addRoots(paths);
    const ids = new Set(added.map((root) => root.id));
    return { added: this.rootViews(this.model.current).filter((view) => ids.has(view.id)), failed };
  }

  /** Removes the folders; the ticket undoes it (undo-book.ts). */
  async removeRoots(rootIds: RootId[]): Promise<UndoTicket> {
    return { undoId: this.undoBook.record(await this.commands.removeRoots(rootIds)) };
  }

  undo(undoId: string): Promise<{ restored: number }> {
    return this.undoBook.undo(undoId);
  }

  async acceptRootTarget(rootId: RootId): Promise<RootView> {
    await this.commands.acceptRootTarget(rootId);
    this.tracker.recheck([rootId]);
    const view = this.rootViews(this.model.current).find((candidate) => candidate.id === rootId);
    if (!view) throw new CodedError('internal', 'The root vanished.');
    return view;
  }

  renameRoot(rootId: RootId, name: string): Promise<void> {
    return this.commands.renameRoot(rootId, name);
  }

  async addServer(input: ServerInput): Promise<ServerView> {
    const server = await this.commands.addServer(input);
    const view = this.getState().servers.find((candidate) => candidate.id === server.id);
    if (!view) throw new CodedError('internal', 'The new server vanished.');
    return view;
  }

  async updateServer(serverId: ServerId, patch: Partial<ServerInput>): Promise<void> {
    await this.commands.updateServer(serverId, patch);
  }

  async removeServer(serverId: ServerId): Promise<UndoTicket> {
    return { undoId: this.undoBook.record(await this.commands.removeServer(serverId)) };
  }

  async replaceArgumentFolder(serverId: ServerId, folder: string): Promise<void> {
    await this.commands.replaceArgumentFolder(serverId, folder);
  }

  async setSharing(serverId: ServerId, sharing: boolean): Promise<void> {
    await this.commands.updateServer(serverId, { sharing });
  }

  async setEnabled(serverId: ServerId, enabled: boolean): Promise<void> {
    await this.commands.updateServer(serverId, { enabled });
  }

  async reconnect(serverId: ServerId): Promise<void> {
    await this.connection(serverId).reconnect();
  }

  /** A revoke comes with a ticket that undoes it. */
  async setGrants(serverIds: ServerId[], rootIds: RootId[], granted: boolean, mode?: GrantMode): Promise<GrantChange & UndoTicket> {
    const change = await this.commands.setGrants(serverIds, rootIds, granted, mode);
    // A grant is undone as a revoke is: a bulk Share of 12 pairs is one Undo away (#30 item 1).
    return { ...change, undoId: this.undoBook.record(granted ? { kind: 'granted', pairs: change.granted } : { kind: 'grants', grants: change.revoked }) };
  }

  async setWritableByChoice(serverId: ServerId, rootId: RootId, names: readonly string[]): Promise<void> {
    await this.commands.setWritableByChoice(serverId, rootId, names);
  }

  updateSettings(patch: Partial<Settings>): Promise<void> {
    return this.commands.updateSettings(patch);
  }

  dismissConsent(requestId: string): void {
    this.consent.dismiss(requestId);
    this.stateView.changed();
  }

  dismissNotice(noticeId: string): void {
    const before = this.notices.length;
    this.notices = this.notices.filter((notice) => notice.id !== noticeId);
    if (this.notices.length === before) throw new CodedError('not-found', `No notice ${noticeId}.`);
    this.stateView.changed();
  }

  /** Re-probes roots now (the UI's "check again"). */
  recheck(rootIds?: RootId[]): void {
    // An id the registry no longer has (removed meanwhile) says so, as every other root edit does.
    const known = new Set(this.model.current.roots.map((root) => root.id));
    const unknown = rootIds?.find((rootId) => !known.has(rootId));
    if (unknown !== undefined) throw new CodedError('not-found', `No root with id ${unknown}.`);
    this.tracker.recheck(rootIds);
  }

  // ---- the one path of every registry change -------------------------------------------------

  private registryChanged(change: RegistryChange): void {
    if (this.heldForListeners) {
      this.handleRegistryChange(change);
      return;
    }
    const held: (() => void)[] = [];
    this.heldForListeners = held;
    try {
      this.handleRegistryChange(change);
    } finally {
      this.heldForListeners = undefined;
      for (const tell of held) tell();
    }
  }

  private handleRegistryChange(change: RegistryChange): void {
    const { registry, origin } = change;
    const sync = this.connections.sync(registry, (serverId) => configSource(change, serverId));
    for (const id of sync.removed) this.refetch.forget(id);
    // The log reads what changed, by whom, then how it reached them: logged once the servers are
    // told, or before anything else this change logs (pendingGrantLog).
    this.logPendingGrants();
    if (origin !== 'load') this.pendingGrantLog = () => this.logGrantChanges(change);
    try {
      this.consent.settle(registry);
      // Restarted servers will ask afresh; telling them as well would only add noise.
      this.lastReached = this.exposureChanged(this.tracker.update(registry), sync.restarted);
    } finally {
      this.logPendingGrants();
    }
    // New connections start after the exposure is computed, so their first answer is right.
    for (const connection of sync.created) connection.start();
    this.stateView.changed();
  }

  /** One 'grants' entry per server whose grants changed, with the folders, their modes and who changed them. */
  private logGrantChanges({ previous, registry, source, rebased }: RegistryChange): void {
    const parts = rebased
      ? [{ changes: grantChanges(previous, rebased.base), source: rebased.source }, { changes: grantChanges(rebased.base, registry), source }]
      : [{ changes: grantChanges(previous, registry), source }];
    for (const part of parts) {
      for (const [serverId, changes] of part.changes) {
        this.connections.get(serverId)?.addActivity('grants', { code: 'grants-changed' }, undefined, { grants: changes, source: part.source });
      }
    }
  }

  /** Applies the roots-change policy to every server whose view changed; returns those it reached. */
  private exposureChanged(change: ExposureChange, skip: ReadonlySet<ServerId>): ServerId[] {
    const reached = this.connections.exposureChanged(change, skip);
    this.logPendingGrants();
    if (change.changed.length > 0) this.emit('exposure', change.changed);
    if (reached.length > 0) this.emit('notified', reached);
    this.stateView.changed();
    return reached;
  }

  private readonly connectionHooks: ConnectionHooks = {
    exposureFor: (serverId: ServerId) => this.tracker.get(serverId),
    rootsRequested: (serverId: ServerId, _answered: readonly WireRoot[], expected: boolean) => {
      this.refetch.arrived(serverId);
      if (!expected) this.raiseConsentIfNeeded(serverId);
    },
    statusChanged: (serverId: ServerId) => this.tellListeners(() => this.statusChanged(serverId)),
    activity: (serverId: ServerId, entry: ActivityEntry) => this.tellListeners(() => this.emit('activity', { serverId, entry })),
    beforeActivity: () => this.logPendingGrants(),
  };

  private logPendingGrants(): void {
    const log = this.pendingGrantLog;
    this.pendingGrantLog = undefined;
    log?.();
  }

  /** Now, or once the registry change being handled has told its servers (heldForListeners). */
  private tellListeners(tell: () => void): void {
    if (this.heldForListeners) this.heldForListeners.push(tell);
    else tell();
  }

  private statusChanged(serverId: ServerId): void {
    this.stateView.changed();
    this.statusFile?.update();
    // At every change, not throttled as 'state' is: for who must see each step (a short one included).
    this.emit('status', serverId);
  }

  private raiseConsentIfNeeded(serverId: ServerId): void {
    const registry = this.model.current;
    const server = registry.servers.find((candidate) => candidate.id === serverId);
    if (!server?.askForFolders || !this.consent.raiseIfUngranted(serverId, registry)) return;
    this.connections.get(serverId)?.addActivity('consent', { code: 'consent-raised' });
    this.stateView.changed();
  }

  // ---- state plumbing ------------------------------------------------------------------------

  /** Every server's live status, for the status file. */
  private serverStatuses(): Record<ServerId, ServerStatus> {
    const statuses: Record<ServerId, ServerStatus> = {};
    for (const server of this.model.current.servers) {
      const status = this.connections.get(server.id)?.status;
      if (status) statuses[server.id] = status;
    }
    return statuses;
  }

  private rootViews(registry: Registry): RootView[] {
    // Sensitive folders are marked so that every way in warns alike (#30 item 2): matrix, bulk Share, consent.
    const places = { home: os.homedir(), dataDir: this.options.configDir };
    return this.tracker.views.views(registry.roots, this.tracker.accessVersion, (id) => this.tracker.access(id), (folder) => sensitiveFolder(folder, places));
  }

  private addNotice(notice: StoreNotice): void {
    this.notices = [...this.notices, { ...notice, id: randomUUID(), at: Date.now() }].slice(-MAX_NOTICES);
    this.stateView.changed();
  }

  private connection(serverId: ServerId) {
    const connection = this.connections.get(serverId);
    if (!connection) throw new CodedError('not-found', `No server with id ${serverId}.`);
    return connection;
  }
}

/** Who changed a server's config: in an edit rebased on another process's version, that process when its version changed the server. */
function configSource({ previous, source, rebased }: RegistryChange, serverId: ServerId): ChangeSource {
  if (!rebased) return source;
  const find = (registry: Registry | undefined) => registry?.servers.find((server) => server.id === serverId);
  return find(rebased.base) !== find(previous) ? rebased.source : source;
}
