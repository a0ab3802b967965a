// What the CLI reports about the registry, for text and --json alike: every root and server with
// its short id and a label that tells it apart, secrets masked as secret-values.ts decides, and every
// time as ISO 8601 (the UI's state keeps epoch milliseconds; the CLI's JSON never mixes the two).
// The CLI connects to no server: `status` shows the states a running app or `serve` publishes
// (host/live-state.ts), "unknown" where none does; other commands leave states out.
import type { SecretPlacement } from '../../shared/secrets.js';
import type { AccessState, ConnectionState, DrainView, LifecycleState, EraReason, Notice, PathMapping, Registry, RootAccess, TransportConfig } from '../../shared/domain.js';
import type { ServerConfinement } from '../../shared/sandbox.js';
import type { ProxyStatus } from '../host/status/proxy-status.js';
import { liveStateOf, type LiveApps } from '../host/status/live-state.js';
import type { RegistrySession } from './registry-session.js';
import { rootLabels } from '../host/registry/root-labels.js';
import { displayTransport } from './secret-values.js';
import { registryShortIds } from '../host/registry/short-ids.js';

export interface RootReport {
  id: string;
  shortId: string;
  name: string;
  /** The name, or as much of the path as it takes to tell it from roots of the same name. */
  label: string;
  path: string;
  canonicalPath: string;
  uri: string;
  isLink: boolean;
  addedAt: string;
  access: { state: AccessState; reason?: string; target?: string; checkedAt: string | null };
}

export interface ServerReport {
  id: string;
  shortId: string;
  name: string;
  enabled: boolean;
  sharing: boolean;
  /** The settings as stored; whether the OS enforces them is the app's to say, not the CLI's. */
  sandbox: boolean;
  network: boolean;
  ownSandboxes?: boolean;
  /** Ports of this computer's loopback open to it (network on). */
  allowLocal?: number[];
  /** The only hosts it may reach (network on); absent: any host. */
  allowHosts?: string[];
  askForFolders: boolean;
  pathMap?: PathMapping[];
  transport: TransportConfig;
  addedAt: string;
  grantedRootIds: string[];
  /** The granted roots whose grant is read-only (a subset of grantedRootIds). */
  readOnlyRootIds: string[];
  /** Granted AND accessible AND sharing on AND enabled: what the server is told. */
  effectiveRootIds: string[];
  /** Where each of its secrets is kept: nobody should learn later that one was in clear. */
  secrets: SecretPlacement[];
  /** `status` only: the state as the app or `serve` running it reports, or "unknown" when none does. */
  live?: ServerLiveReport;
}

/** A restart waiting for running calls, with its deadline in ISO 8601. */
export interface DrainReport {
  calls: number;
  until: string;
  limitMs: number;
  reason: string;
}

export interface ServerLiveReport {
  state: ConnectionState;
  /** Where the connection is in its life (connection-lifecycle.ts); absent from an app too old to say. */
  lifecycle?: LifecycleState;
  /** While lifecycle is 'draining': the calls the restart waits for, and until when. */
  draining?: DrainReport;
  /** The process that runs it and reported this. */
  runBy?: { kind: 'app' | 'serve'; pid: number };
  protocolVersion?: string;
  era?: 'legacy' | 'modern';
  eraReason?: EraReason;
  /** false: it does not re-read its folders, so changes reach it by a restart. */
  rereadsRoots?: boolean;
  confinement?: ConfinementReport;
  error?: string;
}

/** How a server runs: enforced (verified), advisory (why), or off; its self-check time in ISO 8601. */
export type ConfinementReport = Omit<ServerConfinement, 'selfCheck'> & { selfCheck?: { verified: boolean; at: string; detail: string } };

/**
 * A server running behind `mcp-roots proxy` in a process a host started: the one kind of running
 * server the CLI can see (the desktop app's own connections live in the app).
 */
export interface ProxyReport {
  serverId: string;
  serverName: string;
  proxyPid: number;
  host?: { name: string; version: string };
  /** The same names as a server's lifecycle (a subset). */
  state: ProxyStatus['state'];
  draining?: DrainReport;
  rootsPolicy: ProxyStatus['rootsPolicy'];
  /** How the server runs: enforced (verified), advisory (why), or off. */
  confinement?: ConfinementReport;
  startedAt: string;
  updatedAt: string;
  lastRootsRequest?: { at: string; uris: string[] };
  rootsRequestCount: number;
  listChangedCount: number;
  restartCount: number;
  error?: string;
}

export interface StatusReport {
  configPath: string;
  roots: RootReport[];
  servers: ServerReport[];
  proxies: ProxyReport[];
  /** `status` only: the desktop app and `serve` processes running this registry's servers now. */
  running?: { kind: 'app' | 'serve'; pid: number; updatedAt: string }[];
  notices: { level: Notice['level']; code: string; message: string }[];
}

export function statusReport(session: RegistrySession, proxies: readonly ProxyStatus[] = [], live?: LiveApps): StatusReport {
  const registry = session.registry();
  const short = registryShortIds(registry);
  const labels = rootLabels(registry.roots);
  const roots = session.rootViews().map(
    (root): RootReport => ({
      id: root.id,
      shortId: short.get(root.id) ?? root.id,
      name: root.name,
      label: labels.get(root.id) ?? root.name,
      path: root.path,
      canonicalPath: root.canonicalPath,
      uri: root.uri,
      isLink: root.isLink,
      addedAt: root.addedAt,
      access: accessReport(root.access),
    }),
  );
  const servers = registry.servers.map(
    (server): ServerReport => ({
      id: server.id,
      shortId: short.get(server.id) ?? server.id,
      name: server.name,
      enabled: server.enabled,
      sharing: server.sharing,
      sandbox: server.sandbox,
      network: server.network,
      ...(server.ownSandboxes ? { ownSandboxes: true } : {}),
      ...(server.allowLocal?.length ? { allowLocal: server.allowLocal } : {}),
      ...(server.allowHosts ? { allowHosts: server.allowHosts } : {}),
      askForFolders: server.askForFolders,
      ...(server.pathMap ? { pathMap: server.pathMap } : {}),
      transport: displayTransport(server.transport),
      addedAt: server.addedAt,
      grantedRootIds: Object.keys(registry.grants[server.id] ?? {}),
      readOnlyRootIds: Object.entries(registry.grants[server.id] ?? {}).filter(([, mode]) => mode === 'read-only').map(([rootId]) => rootId),
      effectiveRootIds: session.effectiveRootIds(server.id),
      secrets: session.secretPlacements(server.id),
      ...(live ? { live: liveReport(live, registry, server.id) } : {}),
    }),
  );
  const notices = session.notices();
  const running = live?.apps.map((app) => ({ kind: app.kind, pid: app.pid, updatedAt: iso(app.updatedAt) }));
  return { configPath: session.configPath, roots, servers, proxies: proxies.map(proxyReport), ...(running ? { running } : {}), notices };
}

function liveReport(live: LiveApps, registry: Registry, serverId: string): ServerLiveReport {
  const state = liveStateOf(live, registry, serverId);
  const reported = live.servers.get(serverId);
  if (!reported || state !== reported.status.state) return { state };
  const { status, by } = reported;
  return {
    state,
    ...(status.lifecycle ? { lifecycle: status.lifecycle } : {}),
    ...(status.draining ? { draining: drainReport(status.draining) } : {}),
    runBy: by,
    ...(status.protocolVersion ? { protocolVersion: status.protocolVersion } : {}),
    ...(status.era ? { era: status.era } : {}),
    ...(status.eraReason ? { eraReason: status.eraReason } : {}),
    ...(status.rereadsRoots !== undefined ? { rereadsRoots: status.rereadsRoots } : {}),
    ...(status.confinement ? { confinement: confinementReport(status.confinement) } : {}),
    ...(status.error ? { error: status.error } : {}),
  };
}

function drainReport(draining: DrainView): DrainReport {
  return { ...draining, until: iso(draining.until) };
}

function confinementReport({ selfCheck, ...confinement }: ServerConfinement): ConfinementReport {
  return { ...confinement, ...(selfCheck ? { selfCheck: { ...selfCheck, at: iso(selfCheck.at) } } : {}) };
}

function proxyReport(status: ProxyStatus): ProxyReport {
  return {
    serverId: status.serverId,
    serverName: status.serverName,
    proxyPid: status.proxyPid,
    ...(status.host ? { host: { name: status.host.name, version: status.host.version } } : {}),
    state: status.state,
    ...(status.draining ? { draining: drainReport(status.draining) } : {}),
    rootsPolicy: status.rootsPolicy,
    ...(status.confinement ? { confinement: confinementReport(status.confinement) } : {}),
    startedAt: iso(status.startedAt),
    updatedAt: iso(status.updatedAt),
    ...(status.lastRootsRequest ? { lastRootsRequest: { at: iso(status.lastRootsRequest.at), uris: status.lastRootsRequest.uris } } : {}),
    rootsRequestCount: status.rootsRequestCount,
    listChangedCount: status.listChangedCount,
    restartCount: status.restartCount,
    ...(status.error ? { error: status.error } : {}),
  };
}

function accessReport(access: RootAccess): RootReport['access'] {
  return {
    state: access.state,
    ...(access.reason ? { reason: access.reason } : {}),
    ...(access.target ? { target: access.target } : {}),
    // 0 means "not probed yet" in the host's state.
    checkedAt: access.checkedAt > 0 ? iso(access.checkedAt) : null,
  };
}

const iso = (epochMs: number) => new Date(epochMs).toISOString();

export const toJson = (value: unknown): string => JSON.stringify(value, null, 2);
