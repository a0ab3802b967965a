// Who sees what: a server's effective roots are the roots granted to it that are accessible
// right now, and only while the server is enabled with sharing on. Default deny.
import type { GrantMode, PathMapping, Registry, RootAccess, RootId, RootRecord, ServerId, WireRoot } from '../../../shared/domain.js';
import { pathToRootUri } from '../registry/file-uri.js';
import { mapToServer, serverPathToUri } from './path-map.js';

/** An effective root as the host sees it: where it is on disk and what the grant allows. */
export interface ExposedFolder {
  rootId: RootId;
  /** The canonical host path (what a sandbox and docker's `-v` mount). */
  path: string;
  /** Where the server sees it (its pathMap; the host path when unmapped): its URI and `${roots}`. */
  serverPath: string;
  mode: GrantMode;
}

export interface Exposure {
  rootIds: readonly RootId[];
  roots: readonly WireRoot[];
  /** The answer's URIs, computed once: every roots/list request logs them. */
  uris: readonly string[];
  folders: readonly ExposedFolder[];
}

export const NOTHING: Exposure = Object.freeze({
  rootIds: Object.freeze([]),
  roots: Object.freeze([]),
  uris: Object.freeze([]),
  folders: Object.freeze([]),
});

export function computeExposure(
  registry: Registry,
  accessOf: (rootId: RootId) => RootAccess,
  uriOf: (canonicalPath: string) => string = pathToRootUri,
): Map<ServerId, Exposure> {
  const rootsById = indexRoots(registry.roots);
  const result = new Map<ServerId, Exposure>();
  for (const server of registry.servers) {
    result.set(server.id, server.enabled && server.sharing ? exposureOf(registry.grants[server.id], rootsById, accessOf, uriOf, server.pathMap) : NOTHING);
  }
  return result;
}

function exposureOf(
  granted: Readonly<Record<RootId, GrantMode>> | undefined,
  rootsById: Map<RootId, RootRecord>,
  accessOf: (rootId: RootId) => RootAccess,
  uriOf: (canonicalPath: string) => string,
  pathMap: readonly PathMapping[] | undefined,
): Exposure {
  const rootIds: RootId[] = [];
  const roots: WireRoot[] = [];
  const folders: ExposedFolder[] = [];
  for (const [rootId, mode] of Object.entries(granted ?? {})) {
    const root = rootsById.get(rootId);
    if (!root || accessOf(rootId).state !== 'ok') continue;
    rootIds.push(rootId);
    const mapped = mapToServer(root.canonicalPath, pathMap);
    roots.push({ uri: mapped === undefined ? uriOf(root.canonicalPath) : serverPathToUri(mapped), name: root.name });
    folders.push({ rootId, path: root.canonicalPath, serverPath: mapped ?? root.canonicalPath, mode });
  }
  return rootIds.length === 0 ? NOTHING : { rootIds, roots, uris: roots.map((root) => root.uri), folders };
}

// Edits that leave the roots array alone (grants, sharing) reuse its index.
const indexes = new WeakMap<readonly RootRecord[], Map<RootId, RootRecord>>();

function indexRoots(roots: readonly RootRecord[]): Map<RootId, RootRecord> {
  let index = indexes.get(roots);
  if (!index) {
    index = new Map(roots.map((root) => [root.id, root]));
    indexes.set(roots, index);
  }
  return index;
}

/** Same answer AND same grant modes: a mode change matters to a sandbox even when the answer does not. */
export function sameExposure(a: Exposure | undefined, b: Exposure): boolean {
  if (!a || a.roots.length !== b.roots.length) return false;
  return a.roots.every(
    (root, i) => root.uri === b.roots[i]?.uri && root.name === b.roots[i]?.name && a.folders[i]?.mode === b.folders[i]?.mode,
  );
}
