// What the CLI reports about the registry, for text and --json alike: every root and server with
// its short id and a label that tells it apart, secrets masked as secret-values.ts decides, and every
// time as ISO 8601 (the UI's state keeps epoch milliseconds; the CLI's JSON never mixes the two).
// Connection states are left out: the CLI connects to no server, so it cannot know them.
import type { AccessState, Notice, PathMapping, RootAccess, TransportConfig } from '../../shared/domain.js';
import type { RegistrySession } from './registry-session.js';
import { rootLabels } from '../host/root-labels.js';
import { displayTransport } from './secret-values.js';
import { registryShortIds } from '../host/short-ids.js';

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
  askForFolders: boolean;
  pathMap?: PathMapping[];
  transport: TransportConfig;
  addedAt: string;
  grantedRootIds: string[];
  /** The granted roots whose grant is read-only (a subset of grantedRootIds). */
  readOnlyRootIds: string[];
  /** Granted AND accessible AND sharing on AND enabled: what the server is told. */
  effectiveRootIds: string[];
}

export interface StatusReport {
  configPath: string;
  roots: RootReport[];
  servers: ServerReport[];
  notices: { level: Notice['level']; code: string; message: string }[];
}

export function statusReport(session: RegistrySession): StatusReport {
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
      askForFolders: server.askForFolders,
      ...(server.pathMap ? { pathMap: server.pathMap } : {}),
      transport: displayTransport(server.transport),
      addedAt: server.addedAt,
      grantedRootIds: Object.keys(registry.grants[server.id] ?? {}),
      readOnlyRootIds: Object.entries(registry.grants[server.id] ?? {}).filter(([, mode]) => mode === 'read-only').map(([rootId]) => rootId),
      effectiveRootIds: session.effectiveRootIds(server.id),
    }),
  );
  const notices = session.notices();
  return { configPath: session.configPath, roots, servers, notices };
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
