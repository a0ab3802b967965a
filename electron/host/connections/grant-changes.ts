// What a registry change did to each server's grants, folder by folder, for the activity log: the
// registry (not the exposure) is compared, so a grant to a switched-off server or to a folder that
// is missing right now is told too, and a folder going missing is not taken for a revoke.
import os from 'node:os';
import path from 'node:path';
import type { ChangedFolder, GrantChanges, GrantMode, Registry, RootId, ServerId } from '../../../shared/domain.js';

/** Servers in `after` whose grants differ from `before`, with the folders that changed. */
export function grantChanges(before: Registry | undefined, after: Registry, home = os.homedir()): Map<ServerId, GrantChanges> {
  const result = new Map<ServerId, GrantChanges>();
  if (!before || before.grants === after.grants) return result;
  const pathsBefore = new Map(before.roots.map((root) => [root.id, root.canonicalPath]));
  const pathsAfter = new Map(after.roots.map((root) => [root.id, root.canonicalPath]));
  const folder = (paths: Map<RootId, string>, rootId: RootId, mode: GrantMode): ChangedFolder => {
    const where = paths.get(rootId) ?? rootId;
    return { path: where, shown: homeRelative(where, home), mode };
  };
  for (const server of after.servers) {
    const was = before.grants[server.id] ?? {};
    const now = after.grants[server.id] ?? {};
    if (was === now) continue;
    const changes: GrantChanges = { granted: [], revoked: [], modeChanged: [] };
    for (const [rootId, mode] of Object.entries(now)) {
      const previous = Object.hasOwn(was, rootId) ? was[rootId] : undefined;
      if (previous === undefined) changes.granted.push(folder(pathsAfter, rootId, mode));
      else if (previous !== mode) changes.modeChanged.push(folder(pathsAfter, rootId, mode));
    }
    for (const [rootId, mode] of Object.entries(was)) {
      if (!Object.hasOwn(now, rootId)) changes.revoked.push(folder(pathsBefore, rootId, mode));
    }
    if (changes.granted.length + changes.revoked.length + changes.modeChanged.length > 0) result.set(server.id, changes);
  }
  return result;
}

/** `~/code/a` for a folder below home; other paths as they are. */
export function homeRelative(folder: string, home: string): string {
  if (!home || home === path.sep) return folder;
  if (folder === home) return '~';
  const relative = path.relative(home, folder);
  // `..data` below home is below home; only `..` itself, or `../…`, is outside.
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return relative && !outside ? `~${path.sep}${relative}` : folder;
}
