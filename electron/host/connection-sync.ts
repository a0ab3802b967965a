// Keeps one ServerConnection per server in the registry: creates new ones, stops removed ones,
// restarts those whose capabilities or transport changed (both are fixed at connect).
import type { Registry, ServerId, ServerRecord } from '../../shared/domain.js';
import { ServerConnection, type ConnectionHooks, type ConnectionOptions } from './server-connection.js';

export interface SyncResult {
  /** New connections, not started yet: the caller starts them once the exposure is computed. */
  created: ServerConnection[];
  /** Servers that will ask afresh (new or restarted): no list_changed needed. */
  restarted: Set<ServerId>;
  removed: ServerId[];
}

export function syncConnections(
  connections: Map<ServerId, ServerConnection>,
  next: Registry,
  hooks: ConnectionHooks,
  options: ConnectionOptions,
  reason?: string,
): SyncResult {
  const result: SyncResult = { created: [], restarted: new Set(), removed: [] };
  const nextIds = new Set(next.servers.map((server) => server.id));
  for (const [id, connection] of connections) {
    if (nextIds.has(id)) continue;
    connections.delete(id);
    void connection.stop();
    result.removed.push(id);
  }
  for (const server of next.servers) {
    const connection = connections.get(server.id);
    if (!connection) {
      const fresh = new ServerConnection(server, hooks, options);
      connections.set(server.id, fresh);
      result.created.push(fresh);
      result.restarted.add(server.id);
      continue;
    }
    const before = connection.config;
    if (before === server) continue;
    if (needsRestart(before, server)) {
      result.restarted.add(server.id);
      void connection.update(server, reason ?? describeChange(before, server));
    } else {
      connection.setRecord(server);
    }
  }
  return result;
}

function needsRestart(before: ServerRecord, after: ServerRecord): boolean {
  return (
    before.enabled !== after.enabled ||
    before.sharing !== after.sharing ||
    JSON.stringify(before.transport) !== JSON.stringify(after.transport)
  );
}

function describeChange(before: ServerRecord, after: ServerRecord): string {
  if (before.enabled !== after.enabled) return after.enabled ? 'Enabled.' : 'Disabled.';
  if (before.sharing !== after.sharing) return after.sharing ? 'Roots sharing turned on.' : 'Roots sharing turned off.';
  return 'The server configuration changed.';
}
