// The app's MCP client connections, one per server in the registry: created for new servers,
// stopped for removed ones, restarted when a config change needs it, and told of roots changes
// through the roots-change policy. It consumes registry and exposure snapshots; it never edits.
import type { ChangeSource, Registry, ServerId } from '../../../shared/domain.js';
import type { ExposureChange } from '../access/exposure-tracker.js';
import { needsRestart } from './roots-change-policy.js';
import { configChangeEvent } from './activity-events.js';
import { ServerConnection, type ConnectionHooks, type ConnectionOptions } from './server-connection.js';

export interface SyncResult {
  /** New connections, not started yet: the caller starts them once the exposure is computed. */
  created: ServerConnection[];
  /** Servers that will ask afresh (new or restarted): a roots change needs no word to them. */
  restarted: Set<ServerId>;
  removed: ServerId[];
}

export class AppConnections {
  private readonly connections = new Map<ServerId, ServerConnection>();

  constructor(
    private readonly hooks: ConnectionHooks,
    private readonly options: ConnectionOptions,
  ) {}

  get(serverId: ServerId): ServerConnection | undefined {
    return this.connections.get(serverId);
  }

  /** Follows a registry snapshot; `sourceOf` tells who changed a server's config (its entry says so). */
  sync(next: Registry, sourceOf: (serverId: ServerId) => ChangeSource): SyncResult {
    const result: SyncResult = { created: [], restarted: new Set(), removed: [] };
    const nextIds = new Set(next.servers.map((server) => server.id));
    for (const [id, connection] of this.connections) {
      if (nextIds.has(id)) continue;
      this.connections.delete(id);
      void connection.stop();
      result.removed.push(id);
    }
    for (const server of next.servers) {
      const connection = this.connections.get(server.id);
      if (!connection) {
        const fresh = new ServerConnection(server, this.hooks, this.options);
        this.connections.set(server.id, fresh);
        result.created.push(fresh);
        result.restarted.add(server.id);
        continue;
      }
      const before = connection.config;
      if (before === server) continue;
      if (before.enabled !== server.enabled || needsRestart(before, server, new Set(Object.keys(next.grants[server.id] ?? {})))) {
        result.restarted.add(server.id);
        void connection.update(server, configChangeEvent(before, server), sourceOf(server.id));
      } else {
        connection.setRecord(server);
      }
    }
    return result;
  }

  /** Applies the roots-change policy to every server whose view changed. Returns those it reached. */
  exposureChanged(change: ExposureChange, skip: ReadonlySet<ServerId>): ServerId[] {
    const reached: ServerId[] = [];
    for (const serverId of change.changed) {
      if (skip.has(serverId)) continue;
      const connection = this.connections.get(serverId);
      const after = change.after.get(serverId);
      if (connection && after && connection.exposureChanged(after)) reached.push(serverId);
    }
    // Every list_changed sent above goes to its pipe now, one write per server, all after the loop
    // (a write wakes its server: in the loop, each would come before the next server is told).
    for (const serverId of reached) this.connections.get(serverId)?.flushWrites();
    return reached;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.stop()));
    this.connections.clear();
  }
}
