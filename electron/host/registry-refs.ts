// The CLI lets people name things the way they think of them: a root by id, name or path,
// a server by id or name.
import path from 'node:path';
import type { Registry, RootRecord, ServerRecord } from '../../shared/domain.js';
import { CodedError } from '../../shared/result.js';

export function findRoot(registry: Registry, ref: string): RootRecord {
  const asPath = path.isAbsolute(ref) ? path.resolve(ref) : undefined;
  const matches = registry.roots.filter(
    (root) =>
      root.id === ref ||
      root.name === ref ||
      (asPath !== undefined && (root.path === asPath || root.canonicalPath === asPath)),
  );
  return single(matches, ref, 'root');
}

export function findServerRef(registry: Registry, ref: string): ServerRecord {
  return single(
    registry.servers.filter((server) => server.id === ref || server.name === ref),
    ref,
    'server',
  );
}

function single<T extends { id: string }>(matches: T[], ref: string, what: string): T {
  if (matches.length === 0) throw new CodedError('not-found', `No ${what} matches "${ref}".`);
  const first = matches[0] as T;
  if (matches.some((match) => match.id !== first.id)) {
    throw new CodedError('invalid-input', `"${ref}" matches several ${what}s; use the id.`);
  }
  return first;
}
