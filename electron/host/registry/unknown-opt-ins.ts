// A grant's opt-in names this version does not know (a file written by a version that protected a
// name since dropped, or one that protects more) are left out when the file is read, instead of
// failing the whole file: a file that fails is set aside for its last good copy, which fails the
// same way, and the person's registry would be lost over one word. Leaving a name out only keeps
// more protected; the next write stores the narrower choice.
import { PROTECTED_NAMES } from '../../../shared/protected-names.js';

/** The data with unknown opt-in names removed (a copy where any was), and the names removed. */
export function dropUnknownOptIns(data: unknown): { data: unknown; dropped: string[] } {
  if (!isObject(data) || !Array.isArray(data.servers)) return { data, dropped: [] };
  const dropped = new Set<string>();
  const servers = data.servers.map((server: unknown) => {
    if (!isObject(server) || !isObject(server.writableByChoice)) return server;
    const choices: Record<string, unknown> = {};
    for (const [rootId, names] of Object.entries(server.writableByChoice)) {
      if (!Array.isArray(names)) {
        choices[rootId] = names;
        continue;
      }
      choices[rootId] = names.filter((name) => {
        const known = typeof name === 'string' && PROTECTED_NAMES.includes(name);
        if (!known) dropped.add(String(name));
        return known;
      });
    }
    return { ...server, writableByChoice: choices };
  });
  return dropped.size === 0 ? { data, dropped: [] } : { data: { ...data, servers }, dropped: [...dropped] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
