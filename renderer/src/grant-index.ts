// Who is granted what, as O(1) lookups for the consent matrix. The state lists grants per server
// (arrays of root ids); a cell asks "is root R granted to server S?". Each server's array becomes a
// Set on its first lookup, not up front: the first frame shows only the columns on screen, so the
// other servers' Sets (25,000 ids at 1,000 folders x 50 servers) are not built before it is painted.
import type { RootId, ServerId, ServerView } from '../../shared/domain.js';

export interface GrantIndex {
  isGranted(serverId: ServerId, rootId: RootId): boolean;
  /** Granted, and the server is actually told about it now (enabled, sharing, folder reachable). */
  isEffective(serverId: ServerId, rootId: RootId): boolean;
  /** Granted read-only (what the OS enforces only for a server in its sandbox). */
  isReadOnly(serverId: ServerId, rootId: RootId): boolean;
}

// The host hands out the same id array until that server's grants change: build each Set once,
// also across state snapshots.
const setCache = new WeakMap<readonly RootId[], ReadonlySet<RootId>>();
function asSet(ids: readonly RootId[]): ReadonlySet<RootId> {
  let set = setCache.get(ids);
  if (!set) {
    set = new Set(ids);
    setCache.set(ids, set);
  }
  return set;
}

export function createGrantIndex(servers: readonly ServerView[]): GrantIndex {
  const byId = new Map<ServerId, ServerView>();
  for (const server of servers) byId.set(server.id, server);
  return {
    isGranted(serverId, rootId) {
      const server = byId.get(serverId);
      return server ? asSet(server.grantedRootIds).has(rootId) : false;
    },
    isEffective(serverId, rootId) {
      const server = byId.get(serverId);
      return server ? asSet(server.effectiveRootIds).has(rootId) : false;
    },
    isReadOnly(serverId, rootId) {
      const server = byId.get(serverId);
      // A host from before grant modes sends no list: every grant is read-write there.
      return server?.readOnlyRootIds ? asSet(server.readOnlyRootIds).has(rootId) : false;
    },
  };
}
