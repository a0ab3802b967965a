// React reads host state only through these hooks: one immutable snapshot, many cheap selectors.
import { useMemo, useSyncExternalStore } from 'react';
import type { HostState, ProxiedSession, RootId, RootView, ServerId, ServerView } from '../../shared/domain.js';
import { createGrantIndex, type GrantIndex } from './grant-index.js';
import { useHost } from './host-context.js';
import type { HostSnapshot } from './host-store.js';

export function useHostSnapshot(): HostSnapshot {
  const { store } = useHost();
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

/**
 * Selects one slice of the state. The selector must return something already in the snapshot
 * (or a primitive) so an unrelated change does not re-render the caller.
 */
export function useHostSelector<T>(select: (state: HostState) => T, fallback: T): T {
  const { store } = useHost();
  return useSyncExternalStore(store.subscribe, () => {
    const state = store.getSnapshot().state;
    return state ? select(state) : fallback;
  });
}

/** The connection to the host alone: a component that shows it re-renders only when it changes. */
export function useHostSelectorConnection(): HostSnapshot['connection'] {
  const { store } = useHost();
  return useSyncExternalStore(store.subscribe, () => store.getSnapshot().connection);
}

const NO_ROOTS: RootView[] = [];
const NO_SERVERS: ServerView[] = [];

export const useRoots = (): RootView[] => useHostSelector(selectRoots, NO_ROOTS);
export const useServers = (): ServerView[] => useHostSelector(selectServers, NO_SERVERS);
export const useSettings = () => useHostSelector(selectSettings, undefined);
export const useConsentRequests = () => useHostSelector(selectConsent, undefined) ?? [];
export const useNotices = () => useHostSelector(selectNotices, undefined) ?? [];
const NO_PROXIES: ProxiedSession[] = [];
/** Servers other apps run through `mcp-roots proxy`, one entry per running proxy. */
export const useProxies = (): ProxiedSession[] => useHostSelector(selectProxies, NO_PROXIES);

/** Proxy sessions per server id, for the server list and detail. */
export function useProxiesByServer(): Map<ServerId, ProxiedSession[]> {
  const proxies = useProxies();
  return useMemo(() => {
    const byServer = new Map<ServerId, ProxiedSession[]>();
    for (const session of proxies) byServer.set(session.serverId, [...(byServer.get(session.serverId) ?? []), session]);
    return byServer;
  }, [proxies]);
}

function selectRoots(state: HostState) {
  return state.roots;
}
function selectServers(state: HostState) {
  return state.servers;
}
function selectSettings(state: HostState) {
  return state.settings;
}
function selectConsent(state: HostState) {
  return state.consentRequests;
}
function selectNotices(state: HostState) {
  return state.notices;
}
function selectProxies(state: HostState) {
  // A host from before proxies were shown sends none.
  return state.proxies ?? NO_PROXIES;
}

/** Looks a server up by id; undefined once it is removed. */
export function useServer(serverId: ServerId | undefined): ServerView | undefined {
  const servers = useServers();
  return useMemo(() => servers.find((server) => server.id === serverId), [servers, serverId]);
}

/** Root id -> root, rebuilt only when the roots array changes (the host keeps it stable otherwise). */
export function useRootIndex(): Map<RootId, RootView> {
  const roots = useRoots();
  return useMemo(() => new Map(roots.map((root) => [root.id, root])), [roots]);
}

/** Grant lookups for the matrix, rebuilt only when the servers array changes. */
export function useGrantIndex(): GrantIndex {
  const servers = useServers();
  return useMemo(() => createGrantIndex(servers), [servers]);
}
