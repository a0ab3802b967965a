// Short ids, like git's abbreviated hashes: the fewest leading characters of each id (at least
// MIN_LENGTH) that still tell every id of the registry apart. Shown in lists; accepted as a reference.
const MIN_LENGTH = 6;

/** One length for all, so columns line up; long enough that no two ids share a prefix. */
export function shortIds(ids: readonly string[]): Map<string, string> {
  const unique = [...new Set(ids)];
  let length = MIN_LENGTH;
  const longest = Math.max(0, ...unique.map((id) => id.length));
  while (length < longest && new Set(unique.map((id) => id.slice(0, length))).size < unique.length) length++;
  return new Map(unique.map((id) => [id, id.slice(0, length)]));
}

/** Short ids of every root and server together: one prefix never names two things. */
export function registryShortIds(registry: { roots: readonly { id: string }[]; servers: readonly { id: string }[] }): Map<string, string> {
  return shortIds([...registry.roots.map((root) => root.id), ...registry.servers.map((server) => server.id)]);
}
