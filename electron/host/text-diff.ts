// A line diff a person can read: removed and added lines, unchanged ones kept around each change
// and longer unchanged stretches folded into one "skipped" line. For "Use with…" (a host's config
// before and after) and for "Changes by this server" (a file before and after the server's changes).
import { diffLines } from 'diff';
import type { DiffLine } from '../../shared/import-types.js';

/** Unchanged lines kept around each change. */
const CONTEXT = 3;

export function lineDiff(before: string, after: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const part of diffLines(before, after)) {
    const kind: DiffLine['kind'] = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ kind, text });
  }
  return foldContext(lines);
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
