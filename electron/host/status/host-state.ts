// The UI's projection: the immutable HostState every UI renders, built from the registry snapshot,
// the exposure, the connections' status and the app's own lists (consent, notices, proxies). Secrets
// leave masked. Built on demand and cached until something changes; pushed at most once per
// throttle window, so an activity flood cannot flood the UI.
import { EventEmitter } from 'node:events';
import type {
  ChangeForecast,
  ConsentRequest,
  GrantMode,
  HostEnvironment,
  HostState,
  MappedFolderView,
  Notice,
  ProxiedSession,
  Registry,
  RootAccess,
  RootId,
  RootView,
  ServerId,
  ServerStatus,
  ServerView,
} from '../../../shared/domain.js';
import { mapToServer, serverPathToUri } from '../access/path-map.js';
import { maskTransport } from '../../../shared/secrets.js';
import { argumentFolderViews } from '../access/argument-folder-views.js';
import type { Exposure } from '../access/exposure.js';
import { secretPlacements, type SecretCodec } from '../registry/secret-codec.js';
import { combinedForecast } from './combined-forecast.js';

export interface StateSources {
  configPath: string;
  registry(): Registry;
  rootViews(registry: Registry): RootView[];
  exposure(serverId: ServerId): Exposure;
  status(serverId: ServerId): ServerStatus | undefined;
  /** What a grant or revoke would do to it now (roots-change-policy.ts forecastFor), where this process runs it; proxies() add theirs. */
  changeForecast?(serverId: ServerId): ChangeForecast | undefined;
  consentRequests(): ConsentRequest[];
  notices(): Notice[];
  proxies(): ProxiedSession[];
  /** Which PATH and npx the servers are started with (the desktop app says; others leave it out). */
  environment?: HostEnvironment | undefined;
  /** The codec this process seals secrets with: says where each secret is kept (none: in clear). */
  secrets?: SecretCodec | undefined;
}

/** What a server's status is when nothing in this process runs it (disabled, or a CLI's view). */
export const NOT_RUNNING: ServerStatus = Object.freeze({ state: 'disabled', rootsRequestCount: 0, listChangedCount: 0 });

/** Each granted folder the server's pathMap maps, with the path and URI it is told (path-map.ts decides). */
function mappedFolderViews(server: Registry['servers'][number], registry: Registry): MappedFolderView[] {
  if (!server.pathMap || server.pathMap.length === 0) return [];
  const granted = registry.grants[server.id] ?? {};
  const views: MappedFolderView[] = [];
  for (const root of registry.roots) {
    if (!(root.id in granted)) continue;
    const serverPath = mapToServer(root.canonicalPath, server.pathMap);
    if (serverPath !== undefined) views.push({ rootId: root.id, serverPath, uri: serverPathToUri(serverPath) });
  }
  return views;
}

export function buildHostState(sources: StateSources, revision: number): HostState {
  const registry = sources.registry();
  const proxies = sources.proxies();
  const proxiesOf = new Map<ServerId, ProxiedSession[]>();
  for (const session of proxies) proxiesOf.set(session.serverId, [...(proxiesOf.get(session.serverId) ?? []), session]);
  const servers: ServerView[] = registry.servers.map((server) => ({
    ...server,
    transport: maskTransport(server.transport),
    secrets: secretPlacements(server.transport, sources.secrets),
    status: sources.status(server.id) ?? NOT_RUNNING,
    changeRestarts: combinedForecast(sources.changeForecast?.(server.id), proxiesOf.get(server.id) ?? []),
    ...grantedIds(registry.grants[server.id]),
    effectiveRootIds: [...sources.exposure(server.id).rootIds],
    argumentFolders: argumentFolderViews(server.transport, registry.roots, registry.grants[server.id]),
    mappedFolders: mappedFolderViews(server, registry),
  }));
  return {
    revision,
    configPath: sources.configPath,
    roots: sources.rootViews(registry),
    servers,
    consentRequests: sources.consentRequests(),
    notices: sources.notices(),
    proxies,
    settings: registry.settings,
    ...(sources.environment ? { environment: sources.environment } : {}),
  };
}

export class HostStateView extends EventEmitter<{ state: [HostState] }> {
  private revision = 0;
  private cached: HostState | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastPushAt = 0;

  constructor(
    private readonly sources: StateSources,
    private readonly throttleMs = 50,
  ) {
    super();
    this.setMaxListeners(100);
  }

  get(): HostState {
    this.cached ??= buildHostState(this.sources, this.revision);
    return this.cached;
  }

  /** Something the state shows changed: rebuild on the next read, push within the throttle window. */
  changed(): void {
    this.revision++;
    this.cached = undefined;
    if (this.timer) return;
    const wait = Math.max(0, this.lastPushAt + this.throttleMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastPushAt = Date.now();
      // Building a snapshot of 10,000 roots costs milliseconds: only for someone listening.
      if (this.listenerCount('state') > 0) this.emit('state', this.get());
    }, wait);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Root views for a process that watches nothing (the CLI): each root probed once, now. */
export function rootViewsOnce(registry: Registry, uriOf: (path: string) => string, accessOf: (rootId: RootId) => RootAccess): RootView[] {
  return registry.roots.map((root) => ({ ...root, uri: uriOf(root.canonicalPath), access: accessOf(root.id), isLink: root.path !== root.canonicalPath }));
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
