// What the running processes on a registry say about its servers, for a process that runs none
// (`mcp-roots status`): each server's state from the app or `serve` that runs it. A server no live
// app reports on is "unknown" (it may run behind a proxy, whose sessions are listed on their own, or
// not at all); a disabled one is "disabled", which the registry itself says.
import type { ConnectionState, Registry, ServerId, ServerStatus } from '../../../shared/domain.js';
import { liveServerStatus, readAppStatus, type AppKind, type AppStatus } from './app-status.js';

export interface LiveApps {
  /** The running app processes (desktop app or serve): pid, kind and when each last wrote. */
  apps: { pid: number; kind: AppKind; updatedAt: number }[];
  /** Each server's status, and which of those processes reported it. */
  servers: ReadonlyMap<ServerId, { status: ServerStatus; by: { pid: number; kind: AppKind } }>;
}

export async function readLiveApps(configDir: string): Promise<LiveApps> {
  return liveAppsOf(await readAppStatus(configDir));
}

export function liveAppsOf(apps: readonly AppStatus[]): LiveApps {
  const servers = new Map<ServerId, { status: ServerStatus; by: { pid: number; kind: AppKind } }>();
  for (const [serverId, status] of liveServerStatus(apps)) {
    const app = apps.find((candidate) => candidate.servers[serverId] === status);
    if (app) servers.set(serverId, { status, by: { pid: app.pid, kind: app.kind } });
  }
  return { apps: apps.map(({ pid, kind, updatedAt }) => ({ pid, kind, updatedAt })), servers };
}

/** The state a process that runs no servers can truthfully give for one. */
export function liveStateOf(live: LiveApps, registry: Registry, serverId: ServerId): ConnectionState {
  if (registry.servers.find((server) => server.id === serverId)?.enabled === false) return 'disabled';
  return live.servers.get(serverId)?.status.state ?? 'unknown';
}
