// What "use with" changes in a host's config, as a line diff a person can read before anything is
// written. Only the servers section is compared (the rest of the file is kept as it is, and in
// ~/.claude.json it holds far more than servers), and every env and header value is masked:
// another server's API key in that file must not reach the UI in clear text.
import { lineDiff } from '../host/text-diff.js';
import type { DiffLine } from '../../shared/import-types.js';
import { SECRET_MASK } from '../../shared/secrets.js';
import { serversKey, type HostKind } from './host-kind.js';

type Json = Record<string, unknown>;

export function serversDiff(kind: HostKind, before: Json, after: Json, project?: string): DiffLine[] {
  const key = serversKey(kind);
  const section = (document: Json) => {
    const container = project === undefined ? document : (((document.projects as Json | undefined)?.[project] ?? {}) as Json);
    return `${JSON.stringify({ [key]: maskServers(container[key]) }, null, 2)}\n`;
  };
  return lineDiff(section(before), section(after));
}

/** Whether the diff changes anything. */
export function changes(diff: readonly DiffLine[]): boolean {
  return diff.some((line) => line.kind === 'added' || line.kind === 'removed');
}

function maskServers(servers: unknown): unknown {
  if (!isJson(servers)) return servers ?? {};
  return Object.fromEntries(
    Object.entries(servers).map(([name, entry]) => {
      if (!isJson(entry)) return [name, entry];
      const masked: Json = { ...entry };
      for (const field of ['env', 'headers']) if (isJson(entry[field])) masked[field] = maskValues(entry[field]);
      return [name, masked];
    }),
  );
}

/** A value that is only a variable reference (`${env:TOKEN}`) is no secret and shows as written. */
function maskValues(values: Json): Json {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, typeof value === 'string' && /^\$\{[^}]+\}$/.test(value) ? value : SECRET_MASK]));
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
