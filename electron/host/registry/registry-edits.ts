// Pure edits of the registry: each takes a registry and returns a new one (or throws a CodedError).
// The host queues them, so an edit can be re-applied on top of a file another process just changed.
import { randomUUID } from 'node:crypto';
import { NEW_GRANT_MODE, type GrantMode, type PathMapping, type Registry, type RootId, type RootRecord, type ServerId, type ServerRecord, type Settings, type TransportConfig } from '../../../shared/domain.js';
import { CodedError } from '../../../shared/result.js';
import type { ServerLimits } from '../../../shared/server-limits.js';
import { dropChoicesOfGone, withChoice } from './grant-opt-ins.js';
import { defaultRootName, type CanonicalRoot } from './file-uri.js';

export type Edit<T = void> = (registry: Registry) => { registry: Registry; value: T };

export function addRoots(candidates: CanonicalRoot[], now = new Date()): Edit<{ added: RootRecord[]; duplicates: CanonicalRoot[] }> {
  return (registry) => {
    const known = new Set(registry.roots.map((root) => root.canonicalPath));
    const added: RootRecord[] = [];
    const duplicates: CanonicalRoot[] = [];
    for (const candidate of candidates) {
      if (known.has(candidate.canonicalPath)) {
        duplicates.push(candidate);
        continue;
      }
      known.add(candidate.canonicalPath);
      added.push({
        id: randomUUID(),
        path: candidate.path,
        canonicalPath: candidate.canonicalPath,
        name: defaultRootName(candidate.path),
        addedAt: now.toISOString(),
      });
    }
    return { registry: { ...registry, roots: [...registry.roots, ...added] }, value: { added, duplicates } };
  };
}

/** Removing a root revokes it from every server: nothing lingers to come back by accident. */
export function removeRoots(rootIds: string[]): Edit<Removal> {
  return (registry) => {
    const gone = new Set(rootIds);
    requireAll(gone, registry.roots, 'root');
    const removal: Removal = {
      kind: 'roots',
      roots: registry.roots.flatMap((root, index) => (gone.has(root.id) ? [{ root, index }] : [])),
      grants: grantPairs(registry, (_serverId, rootId) => gone.has(rootId)),
    };
    const grants = Object.fromEntries(
      Object.entries(registry.grants).map(([serverId, granted]) => [
        serverId,
        Object.fromEntries(Object.entries(granted).filter(([rootId]) => !gone.has(rootId))),
      ]),
    );
    // A removed folder's opt-ins go with its grants.
    return { registry: dropChoicesOfGone({ ...registry, roots: registry.roots.filter((r) => !gone.has(r.id)), grants }), value: removal };
  };
}

/** Points a root at the folder it now resolves to, after the user confirmed the new target. */
export function retargetRoot(rootId: string, canonicalPath: string): Edit {
  return (registry) => {
    requireAll(new Set([rootId]), registry.roots, 'root');
    if (registry.roots.some((root) => root.canonicalPath === canonicalPath && root.id !== rootId)) {
      throw new CodedError('duplicate', `"${canonicalPath}" is already a root.`);
    }
    const roots = registry.roots.map((root) => (root.id === rootId ? { ...root, canonicalPath } : root));
    return { registry: { ...registry, roots }, value: undefined };
  };
}

export function renameRoot(rootId: string, name: string): Edit {
  return (registry) => {
    requireAll(new Set([rootId]), registry.roots, 'root');
    const roots = registry.roots.map((root) => (root.id === rootId ? { ...root, name } : root));
    return { registry: { ...registry, roots }, value: undefined };
  };
}

export interface ServerInput {
  name: string;
  transport: TransportConfig;
  enabled: boolean;
  sharing: boolean;
  /** Default on: confined where the OS allows it. */
  sandbox?: boolean | undefined;
  /** Default on. */
  network?: boolean | undefined;
  /** Default off: user namespaces inside its sandbox, for a browser's own sandbox. */
  ownSandboxes?: boolean | undefined;
  /** Default none: the ports of this computer's loopback it may reach (network on). */
  allowLocal?: number[] | undefined;
  /** Default absent (any host): the only hosts it may reach (network on); null in a patch: any host again. */
  allowHosts?: string[] | null | undefined;
  /** Default on: a server asking for roots with none granted raises a consent request. */
  askForFolders?: boolean | undefined;
  pathMap?: PathMapping[] | undefined;
  limits?: ServerLimits | undefined;
}

/** A new server's settings where the input leaves them out. */
export const SERVER_DEFAULTS = { sandbox: true, network: true, askForFolders: true } as const;

export function addServer(input: ServerInput, now = new Date()): Edit<ServerRecord> {
  return (registry) => {
    if (registry.servers.some((server) => server.name === input.name)) {
      throw new CodedError('duplicate', `A server named "${input.name}" already exists.`);
    }
    const server: ServerRecord = {
      id: randomUUID(),
      ...SERVER_DEFAULTS,
      ...(definedOnly({ ...input, allowHosts: input.allowHosts ?? undefined }) as Omit<ServerInput, 'sandbox' | 'network' | 'askForFolders' | 'allowHosts'> & { allowHosts?: string[] }),
      addedAt: now.toISOString(),
    };
    return {
      registry: { ...registry, servers: [...registry.servers, server], grants: { ...registry.grants, [server.id]: {} } },
      value: server,
    };
  };
}

export function updateServer(serverId: string, patch: Partial<ServerInput>): Edit<ServerRecord> {
  return (registry) => {
    const current = findServer(registry, serverId);
    if (patch.name !== undefined && registry.servers.some((s) => s.name === patch.name && s.id !== serverId)) {
      throw new CodedError('duplicate', `A server named "${patch.name}" already exists.`);
    }
    const { allowHosts, ...rest } = patch;
    const updated: ServerRecord = { ...current, ...definedOnly(rest) };
    // null: any host again (the field goes); a list: exactly that list.
    if (allowHosts === null) delete updated.allowHosts;
    else if (allowHosts !== undefined) updated.allowHosts = allowHosts;
    const servers = registry.servers.map((server) => (server.id === serverId ? updated : server));
    return { registry: { ...registry, servers }, value: updated };
  };
}

/**
 * "Replace it with ${roots}": an argument that names a folder (`server-filesystem /a /b`) gives way
 * to the granted folders, so the grants decide what the server is started with. The first such
 * argument becomes `${roots}` (unless the command has one already); the others go.
 */
export function replaceArgumentFolder(serverId: string, folder: string): Edit<ServerRecord> {
  return (registry) => {
    const server = findServer(registry, serverId);
    const transport = server.transport;
    const wanted = trimSlash(folder);
    const at = transport.type === 'stdio' ? transport.args.flatMap((arg, i) => (trimSlash(arg) === wanted ? [i] : [])) : [];
    if (transport.type !== 'stdio' || at.length === 0) {
      throw new CodedError('invalid-input', `"${folder}" is not a whole argument of ${server.name}; edit its command instead.`);
    }
    const hasPlaceholder = transport.args.includes('${roots}');
    const args = transport.args.flatMap((arg, i) => {
      if (!at.includes(i)) return [arg];
      return i === at[0] && !hasPlaceholder ? ['${roots}'] : [];
    });
    return updateServer(serverId, { transport: { ...transport, args } })(registry);
  };
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

export function removeServer(serverId: string): Edit<Removal> {
  return (registry) => {
    const server = findServer(registry, serverId);
    const removal: Removal = {
      kind: 'server',
      server,
      index: registry.servers.indexOf(server),
      grants: grantPairs(registry, (grantee) => grantee === serverId),
    };
    const { [serverId]: _removed, ...grants } = registry.grants;
    return {
      registry: { ...registry, servers: registry.servers.filter((s) => s.id !== serverId), grants },
      value: removal,
    };
  };
}

/** How many (server, root) pairs an edit of grants changed: "revoked 0" is said as such. */
export interface GrantChange {
  changed: number;
  /** The grants a revoke took away, with their modes: what an undo puts back. */
  revoked: GrantPair[];
  /** The grants a grant made or changed, each with its mode before (none: it was not granted): what an undo takes back. */
  granted: GrantedPair[];
}

/** A grant made or changed by one action: what it was before and what it became. */
export interface GrantedPair {
  serverId: ServerId;
  rootId: RootId;
  before?: GrantMode | undefined;
  after: GrantMode;
}

/**
 * Grants or revokes every (server, root) pair given: the matrix's bulk action and a single toggle
 * alike. A grant without a mode keeps an existing grant's mode (new ones are read-write); with a
 * mode, every pair gets that mode.
 */
export function setGrants(serverIds: string[], rootIds: string[], granted: boolean, mode?: GrantMode): Edit<GrantChange> {
  return (registry) => {
    requireAll(new Set(serverIds), registry.servers, 'server');
    requireAll(new Set(rootIds), registry.roots, 'root');
    const grants = { ...registry.grants };
    let changed = 0;
    const revoked: GrantPair[] = [];
    const grantedPairs: GrantedPair[] = [];
    let servers = registry.servers;
    for (const serverId of serverIds) {
      const current = new Map<RootId, GrantMode>(Object.entries(grants[serverId] ?? {}));
      for (const rootId of rootIds) {
        const before = current.get(rootId);
        if (granted) {
          const next = mode ?? before ?? NEW_GRANT_MODE;
          if (before !== next) {
            changed++;
            grantedPairs.push({ serverId, rootId, ...(before ? { before } : {}), after: next });
          }
          current.set(rootId, next);
          // A new grant starts protected, even where the file still holds a choice for it (a hand edit).
          if (before === undefined) servers = withChoice(servers, serverId, rootId, undefined);
        } else if (before !== undefined) {
          current.delete(rootId);
          revoked.push(grantPair(registry, serverId, rootId, before));
          changed++;
        }
      }
      // Keep the registry's root order so answers are stable.
      grants[serverId] = Object.fromEntries(
        registry.roots.flatMap((root) => {
          const granted = current.get(root.id);
          return granted ? [[root.id, granted] as const] : [];
        }),
      );
    }
    if (changed === 0) return { registry, value: { changed, revoked, granted: grantedPairs } };
    // A revoked grant's opt-ins go with it.
    return { registry: dropChoicesOfGone({ ...registry, servers, grants }), value: { changed, revoked, granted: grantedPairs } };
  };
}

/** One (server, folder) grant and its mode. */
export interface GrantPair {
  serverId: ServerId;
  rootId: RootId;
  mode: GrantMode;
  /** The protected names the person left writable in it (absent: none); an undo puts them back too. */
  writable?: string[];
}

/** What a removal or a revoke took away: all it takes to put it back with the same ids, modes and places. */
export type Removal =
  | { kind: 'roots'; roots: { root: RootRecord; index: number }[]; grants: GrantPair[] }
  | { kind: 'server'; server: ServerRecord; index: number; grants: GrantPair[] }
  | { kind: 'grants'; grants: GrantPair[] }
  /** A grant (a click, a bulk Share) taken back: each pair to its mode before, or revoked where it was new. */
  | { kind: 'granted'; pairs: GrantedPair[] };

export const grantKey = (pair: { serverId: ServerId; rootId: RootId }): string => `${pair.serverId}\n${pair.rootId}`;

function grantPairs(registry: Registry, keep: (serverId: ServerId, rootId: RootId) => boolean): GrantPair[] {
  return Object.entries(registry.grants).flatMap(([serverId, granted]) =>
    Object.entries(granted).flatMap(([rootId, mode]) => (keep(serverId, rootId) ? [grantPair(registry, serverId, rootId, mode)] : [])),
  );
}

function grantPair(registry: Registry, serverId: ServerId, rootId: RootId, mode: GrantMode): GrantPair {
  const writable = registry.servers.find((server) => server.id === serverId)?.writableByChoice?.[rootId];
  return writable ? { serverId, rootId, mode, writable: [...writable] } : { serverId, rootId, mode };
}

/** The grants one registry holds and the next does not: revokes an undo must never overturn. */
export function revokedBetween(before: Registry, after: Registry): GrantPair[] {
  return grantPairs(before, (serverId, rootId) => after.grants[serverId]?.[rootId] === undefined);
}

/**
 * The inverse of a removal or a revoke: the folders or the server come back with their ids, in their
 * places, with their grants, modes and opt-ins (the protected names left writable). A grant is not put back when its folder or server is gone,
 * when it holds already (a newer decision stands), or when it is in `revokedSince`: revoked by the
 * person after the removal. A folder or server that was added again meanwhile (same path, same
 * name) is refused as a duplicate, and nothing is changed.
 */
export function restoreRemoval(removal: Removal, revokedSince: ReadonlySet<string> = new Set()): Edit<{ restored: number }> {
  return (registry) => {
    let roots = registry.roots;
    let servers = registry.servers;
    const grants = { ...registry.grants };
    let restored = 0;
    if (removal.kind === 'roots') {
      const back = removal.roots.filter(({ root }) => !roots.some((known) => known.id === root.id));
      for (const { root } of back) {
        const clash = roots.find((known) => known.canonicalPath === root.canonicalPath);
        if (clash) throw new CodedError('duplicate', `"${root.canonicalPath}" was added again since: remove "${clash.name}" first to undo.`);
      }
      roots = [...roots];
      for (const { root, index } of [...back].sort((a, b) => a.index - b.index)) roots.splice(Math.min(index, roots.length), 0, root);
      restored += back.length;
    } else if (removal.kind === 'server' && !servers.some((known) => known.id === removal.server.id)) {
      if (servers.some((known) => known.name === removal.server.name)) {
        throw new CodedError('duplicate', `A server named "${removal.server.name}" was added since: rename or remove it first to undo.`);
      }
      servers = [...servers];
      servers.splice(Math.min(removal.index, servers.length), 0, removal.server);
      grants[removal.server.id] = {};
      restored++;
    }
    const rootIds = new Set(roots.map((root) => root.id));
    const touched = new Set<ServerId>();
    if (removal.kind === 'granted') {
      for (const pair of removal.pairs) {
        const held = grants[pair.serverId];
        // Changed since (revoked, or another mode chosen): that later choice stands.
        if (!held || held[pair.rootId] !== pair.after) continue;
        const next = { ...held };
        if (pair.before) next[pair.rootId] = pair.before;
        else delete next[pair.rootId];
        grants[pair.serverId] = next;
        restored++;
      }
      if (restored === 0) return { registry, value: { restored } };
      // A grant taken back takes its opt-ins with it.
      return { registry: dropChoicesOfGone({ ...registry, roots, servers, grants }), value: { restored } };
    }
    for (const pair of removal.grants) {
      const held = grants[pair.serverId];
      if (!held || !rootIds.has(pair.rootId) || held[pair.rootId] !== undefined || revokedSince.has(grantKey(pair))) continue;
      grants[pair.serverId] = { ...grants[pair.serverId], [pair.rootId]: pair.mode };
      // Exactly the names it had: none is none, whatever the file holds for it now.
      servers = withChoice(servers, pair.serverId, pair.rootId, pair.writable);
      touched.add(pair.serverId);
      restored++;
    }
    // Keep the registry's root order so answers are stable.
    for (const serverId of touched) {
      const held = grants[serverId]!;
      grants[serverId] = Object.fromEntries(
        roots.flatMap((root) => {
          const mode = held[root.id];
          return mode ? [[root.id, mode] as const] : [];
        }),
      );
    }
    if (restored === 0) return { registry, value: { restored } };
    // A server put back whole carries the opt-ins of grants that stay revoked: those go.
    return { registry: dropChoicesOfGone({ ...registry, roots, servers, grants }), value: { restored } };
  };
}

export function updateSettings(patch: Partial<Settings>): Edit {
  return (registry) => ({ registry: { ...registry, settings: { ...registry.settings, ...definedOnly(patch) } }, value: undefined });
}

export function findServer(registry: Registry, serverId: string): ServerRecord {
  const server = registry.servers.find((s) => s.id === serverId);
  if (!server) throw new CodedError('not-found', `No server with id ${serverId}.`);
  return server;
}

function requireAll(ids: Set<string>, items: { id: string }[], what: string): void {
  const known = new Set(items.map((item) => item.id));
  for (const id of ids) {
    if (!known.has(id)) throw new CodedError('not-found', `No ${what} with id ${id}.`);
  }
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
