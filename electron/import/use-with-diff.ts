// What "use with" changes in a host's config, as a line diff a person can read before anything is
// written. Only the servers section is compared (the rest of the file is kept as it is, and in
// ~/.claude.json it holds far more than servers), and every env and header value is masked:
// another server's API key in that file must not reach the UI in clear text.
import { diffLines } from 'diff';
import type { DiffLine } from '../../shared/import-types.js';
import { SECRET_MASK } from '../../shared/secrets.js';
import { serversKey, type HostKind } from './host-kind.js';

type Json = Record<string, unknown>;

/** Unchanged lines kept around each change; longer unchanged stretches fold into one "skipped" line. */
const CONTEXT = 3;

export function serversDiff(kind: HostKind, before: Json, after: Json, project?: string): DiffLine[] {
  const key = serversKey(kind);
  const section = (document: Json) => {
    const container = project === undefined ? document : (((document.projects as Json | undefined)?.[project] ?? {}) as Json);
    return `${JSON.stringify({ [key]: maskServers(container[key]) }, null, 2)}\n`;
  };
  const lines: DiffLine[] = [];
  for (const part of diffLines(section(before), section(after))) {
    const kindOf: DiffLine['kind'] = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ kind: kindOf, text });
  }
  return foldContext(lines);
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

function foldContext(lines: DiffLine[]): DiffLine[] {
  const near = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let k = Math.max(0, index - CONTEXT); k <= Math.min(lines.length - 1, index + CONTEXT); k++) near[k] = true;
  });
  const out: DiffLine[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (near[index] || lines[index]!.kind !== 'same') {
      out.push(lines[index]!);
      continue;
    }
    let end = index;
    while (end + 1 < lines.length && !near[end + 1] && lines[end + 1]!.kind === 'same') end++;
    out.push({ kind: 'skipped', text: '', count: end - index + 1 });
    index = end;
  }
  return out;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
