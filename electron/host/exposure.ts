// Who sees what: a server's effective roots are the roots granted to it that are accessible
// right now, and only while the server is enabled with sharing on. Default deny.
import type { Registry, RootAccess, RootId, RootRecord, ServerId, WireRoot } from '../../shared/domain.js';
import { pathToRootUri } from './file-uri.js';

export interface Exposure {
  rootIds: readonly RootId[];
  roots: readonly WireRoot[];
  /** The answer's URIs, computed once: every roots/list request logs them. */
  uris: readonly string[];
}

export const NOTHING: Exposure = Object.freeze({ rootIds: Object.freeze([]), roots: Object.freeze([]), uris: Object.freeze([]) });

export function computeExposure(
  registry: Registry,
  accessOf: (rootId: RootId) => RootAccess,
  uriOf: (canonicalPath: string) => string = pathToRootUri,
): Map<ServerId, Exposure> {
  const rootsById = indexRoots(registry.roots);
  const result = new Map<ServerId, Exposure>();
  for (const server of registry.servers) {
    if (!server.enabled || !server.sharing) {
      result.set(server.id, NOTHING);
      continue;
    }
    const rootIds: RootId[] = [];
    const roots: WireRoot[] = [];
    for (const rootId of registry.grants[server.id] ?? []) {
      const root = rootsById.get(rootId);
      if (!root || accessOf(rootId).state !== 'ok') continue;
      rootIds.push(rootId);
      roots.push({ uri: uriOf(root.canonicalPath), name: root.name });
    }
    result.set(server.id, rootIds.length === 0 ? NOTHING : { rootIds, roots, uris: roots.map((root) => root.uri) });
  }
  return result;
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

export function sameExposure(a: Exposure | undefined, b: Exposure): boolean {
  if (!a || a.roots.length !== b.roots.length) return false;
  return a.roots.every((root, i) => root.uri === b.roots[i]?.uri && root.name === b.roots[i]?.name);
}
