// A server's activity log as a person reads it. Pure, so the rules are tested alone:
// - consecutive stderr lines are one block, in the order the server wrote them (a stack trace
//   reads top to bottom even in a newest-first list);
// - repeats collapse with a count: the same entry again and again (a retry loop's error), or the
//   same short cycle again and again (its output, then its error), and the host's own folds count;
// - a filter by kind.
import type { ActivityEntry, ActivityKind } from '../../../shared/domain.js';

export interface ActivityItem {
  /** Stable across updates: the first entry's sequence number. */
  key: number;
  kind: ActivityKind;
  /** One for most entries; every line of a stderr block, oldest first. */
  entries: ActivityEntry[];
  firstAt: number;
  lastAt: number;
  /** How many times this item happened (repeats and the host's folds together). */
  count: number;
}

export type ActivityFilter = 'all' | 'problems' | 'folders' | 'connection';
export const ACTIVITY_FILTERS: ActivityFilter[] = ['all', 'problems', 'folders', 'connection'];

const FILTER_KINDS: Record<Exclude<ActivityFilter, 'all'>, ReadonlySet<ActivityKind>> = {
  problems: new Set(['error', 'stderr']),
  folders: new Set(['roots-request', 'list-changed', 'consent', 'grants']),
  connection: new Set(['connect', 'disconnect', 'restart', 'info']),
};

/** Lines written within this long of each other, with nothing else between, are one block. */
const BLOCK_GAP_MS = 1000;
/** The longest cycle recognised as repeating (a start's entries: connected, verified, asked, closed, an error). */
const MAX_CYCLE = 5;
/** Parameters that differ each time a cycle repeats without saying anything new: its process id, a duration. */
const VOLATILE_PARAMS = new Set(['pid', 'ms', 'afterMs']);

export function activityItems(entries: readonly ActivityEntry[], filter: ActivityFilter = 'all'): ActivityItem[] {
  const kinds = filter === 'all' ? undefined : FILTER_KINDS[filter];
  const blocks: ActivityItem[] = [];
  for (const entry of entries) {
    if (kinds && !kinds.has(entry.kind)) continue;
    const previous = blocks[blocks.length - 1];
    if (previous && entry.kind === 'stderr' && previous.kind === 'stderr' && entry.at - previous.lastAt <= BLOCK_GAP_MS) {
      previous.entries.push(entry);
      previous.lastAt = entry.at;
      continue;
    }
    blocks.push({ key: entry.seq, kind: entry.kind, entries: [entry], firstAt: entry.at, lastAt: entry.at, count: entry.count ?? 1 });
  }
  return collapseRepeats(blocks);
}

/** The log as plain text, oldest first, for copying into a bug report. */
export function activityText(items: readonly ActivityItem[], label: (kind: ActivityKind) => string, time: (at: number) => string): string {
  return items
    .map((item) => {
      const repeat = item.count > 1 ? ` (×${item.count})` : '';
      const lines = item.entries.map((entry) => [entry.message, ...(entry.uris ?? [])].join('\n    '));
      return `${time(item.firstAt)}  ${label(item.kind)}${repeat}\n    ${lines.join('\n    ')}`;
    })
    .join('\n');
}

/**
 * What makes two items the same happening: the server's own words as written, the host's events by
 * code and parameters less the volatile ones (a retry loop's "verified, pid 41" then "pid 57" is one
 * cycle repeating, #30 item 5).
 */
function signature(item: ActivityItem): string {
  const what = (entry: ActivityEntry) =>
    entry.code === 'stderr' || entry.code === 'error-text' || !entry.code
      ? entry.message
      : [entry.code, Object.entries(entry.params ?? {}).filter(([name]) => !VOLATILE_PARAMS.has(name)), entry.failure?.code ?? null, entry.failure?.exitCode ?? null, entry.failure?.command ?? null, entry.grants ?? null, entry.source ?? null];
  return JSON.stringify([item.kind, item.entries.map((entry) => [what(entry), entry.uris ?? []])]);
}

function collapseRepeats(items: ActivityItem[]): ActivityItem[] {
  const signatures = items.map(signature);
  const sameRun = (a: number, b: number, length: number) => {
    for (let k = 0; k < length; k++) if (signatures[a + k] !== signatures[b + k]) return false;
    return true;
  };
  const out: ActivityItem[] = [];
  let i = 0;
  while (i < items.length) {
    let period = 0;
    for (let p = 1; p <= MAX_CYCLE && i + 2 * p <= items.length; p++) {
      if (sameRun(i, i + p, p)) {
        period = p;
        break;
      }
    }
    if (period === 0) {
      out.push(items[i]!);
      i++;
      continue;
    }
    let repeats = 2;
    while (i + (repeats + 1) * period <= items.length && sameRun(i, i + repeats * period, period)) repeats++;
    for (let k = 0; k < period; k++) {
      const first = items[i + k]!;
      const copies = Array.from({ length: repeats }, (_, r) => items[i + r * period + k]!);
      out.push({ ...first, lastAt: copies[copies.length - 1]!.lastAt, count: copies.reduce((sum, copy) => sum + copy.count, 0) });
    }
    i += repeats * period;
  }
  return out;
}
