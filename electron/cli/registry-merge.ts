// What `mcp-roots import-registry` would change, decided before anything changes: roots merge by
// canonical path, servers by name, and every grant the file would add is listed for confirmation.
// A server already here keeps its config (the differences are named); nothing is removed or revoked.
import type { GrantMode, Registry, TransportConfig } from '../../shared/domain.js';
import type { ExportDocument, ExportedServer, ExportedTransport } from './registry-export.js';
import type { ServerInput } from './registry-session.js';

/** An exported root as found on this machine: its canonical path here, or why it cannot be added. */
export type RootHere = { canonicalPath: string } | { error: string };

export interface RootPlan {
  path: string;
  name: string;
  /** add: a new root; exists: already a root here; unavailable: the folder is not on this machine. */
  status: 'add' | 'exists' | 'unavailable';
  canonicalPath?: string;
  reason?: string;
}

export interface ServerPlan {
  name: string;
  status: 'add' | 'exists';
  /** For add: the server as it will be added (disabled when something was left out of the file). */
  input?: ServerInput;
  leftOut: string[];
  /** For exists: what differs from the file; the config here is kept. */
  differs: string[];
}

export interface GrantPlan {
  server: string;
  rootPath: string;
  /** The root's canonical path on this machine. */
  canonicalPath: string;
  mode: GrantMode;
  /** The grant's mode here now, when there is one (read-only, to become read-write). */
  modeHere?: GrantMode;
}

export interface MergePlan {
  roots: RootPlan[];
  servers: ServerPlan[];
  /** Grants the file adds: shown, and applied only once confirmed. */
  grants: GrantPlan[];
  /** Grants to roots that are not on this machine. */
  skippedGrants: { server: string; rootPath: string; reason: string }[];
}

export function planMerge(document: ExportDocument, registry: Registry, here: ReadonlyMap<string, RootHere>): MergePlan {
  const localByCanonical = new Map(registry.roots.map((root) => [root.canonicalPath, root]));
  const roots: RootPlan[] = document.roots.map((root) => {
    const found = here.get(root.path) ?? { error: 'not checked' };
    if ('error' in found) return { path: root.path, name: root.name, status: 'unavailable', reason: found.error };
    const status = localByCanonical.has(found.canonicalPath) ? 'exists' : 'add';
    return { path: root.path, name: root.name, status, canonicalPath: found.canonicalPath };
  });
  const planOf = new Map(document.roots.map((root, index) => [root.canonicalPath, roots[index] as RootPlan]));

  const servers: ServerPlan[] = document.servers.map((server) => {
    const local = registry.servers.find((candidate) => candidate.name === server.name);
    if (local) return { name: server.name, status: 'exists', leftOut: server.leftOut, differs: differences(server, local) };
    return { name: server.name, status: 'add', input: serverInput(server), leftOut: server.leftOut, differs: [] };
  });

  const grants: GrantPlan[] = [];
  const skippedGrants: MergePlan['skippedGrants'] = [];
  for (const server of document.servers) {
    const local = registry.servers.find((candidate) => candidate.name === server.name);
    const granted = (local ? registry.grants[local.id] : undefined) ?? {};
    for (const { path: exportedPath, mode } of server.grants) {
      const root = planOf.get(exportedPath);
      if (!root || root.status === 'unavailable' || !root.canonicalPath) {
        skippedGrants.push({ server: server.name, rootPath: root?.path ?? exportedPath, reason: root?.reason ?? 'the file does not list this root' });
        continue;
      }
      const localRoot = localByCanonical.get(root.canonicalPath);
      const modeHere = localRoot ? granted[localRoot.id] : undefined;
      // Granted here already, as wide or wider: the import changes nothing (it never narrows either).
      if (modeHere === mode || modeHere === 'read-write') continue;
      grants.push({ server: server.name, rootPath: root.path, canonicalPath: root.canonicalPath, mode, ...(modeHere ? { modeHere } : {}) });
    }
  }
  return { roots, servers, grants, skippedGrants };
}

export function isEmptyPlan(plan: MergePlan): boolean {
  return !plan.roots.some((root) => root.status === 'add') && !plan.servers.some((server) => server.status === 'add') && plan.grants.length === 0;
}

/** A server from the file as it is added here: left-out values empty, and then disabled until filled in. */
function serverInput(server: ExportedServer): ServerInput {
  return {
    name: server.name,
    transport: filled(server.transport),
    enabled: server.enabled && server.leftOut.length === 0,
    sharing: server.sharing,
    sandbox: server.sandbox,
    network: server.network,
    ...(server.ownSandboxes ? { ownSandboxes: true } : {}),
    ...(server.allowLocal?.length ? { allowLocal: server.allowLocal } : {}),
    ...(server.allowHosts ? { allowHosts: server.allowHosts } : {}),
    askForFolders: server.askForFolders,
    ...(server.pathMap ? { pathMap: server.pathMap } : {}),
  };
}

function filled(transport: ExportedTransport): TransportConfig {
  const values = (pairs: Record<string, string | null>) => Object.fromEntries(Object.entries(pairs).map(([key, value]) => [key, value ?? '']));
  if (transport.type === 'stdio') {
    return { type: 'stdio', command: transport.command, args: transport.args.map((arg) => arg ?? ''), env: values(transport.env), ...(transport.cwd ? { cwd: transport.cwd } : {}) };
  }
  return { type: transport.type, url: transport.url, headers: values(transport.headers) };
}

/** Which parts of a server here differ from the file; values left out of the file count as unknown. */
function differences(server: ExportedServer, local: { transport: TransportConfig; enabled: boolean; sharing: boolean; sandbox: boolean; network: boolean; askForFolders: boolean }): string[] {
  const differs: string[] = [];
  const a = server.transport;
  const b = local.transport;
  if (a.type !== b.type) differs.push('transport');
  else if (a.type === 'stdio' && b.type === 'stdio') {
    if (a.command !== b.command) differs.push('command');
    if (a.args.length !== b.args.length || a.args.some((arg, index) => arg !== null && arg !== b.args[index])) differs.push('args');
    if (pairsDiffer(a.env, b.env)) differs.push('env');
    if ((a.cwd ?? '') !== (b.cwd ?? '')) differs.push('cwd');
  } else if (a.type !== 'stdio' && b.type !== 'stdio') {
    // A URL whose credential was left out of the file cannot be compared.
    if (a.url !== b.url && !server.leftOut.some((entry) => entry.startsWith('url '))) differs.push('url');
    if (pairsDiffer(a.headers, b.headers)) differs.push('headers');
  }
  for (const setting of ['enabled', 'sharing', 'sandbox', 'network', 'askForFolders'] as const) {
    if (server[setting] !== local[setting]) differs.push(setting);
  }
  return differs;
}

function pairsDiffer(file: Record<string, string | null>, here: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(file), ...Object.keys(here)]);
  return [...keys].some((key) => !(key in file) || !(key in here) || (file[key] !== null && file[key] !== here[key]));
}
