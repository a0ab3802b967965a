// A server's activity as the page keeps it: the host's log, then live entries by sequence number.
// The host folds a run of identical entries into one (activity-log.ts): the folded entry comes as a
// new event with a new sequence number and the running count, and it takes the place of the entry
// it folds into. Appended instead, a run of 2,342 requests read "×2,743,653" (1 + 2 + … + n).
import type { ActivityEntry } from '../../shared/domain.js';

export const ACTIVITY_PAGE_LIMIT = 300;

export function mergeActivity(base: readonly ActivityEntry[], extra: readonly ActivityEntry[], limit = ACTIVITY_PAGE_LIMIT): ActivityEntry[] {
  const lastSeq = base[base.length - 1]?.seq ?? 0;
  const merged = [...base];
  for (const entry of extra) {
    if (entry.seq <= lastSeq) continue;
    const last = merged[merged.length - 1];
    if (last && foldsInto(entry, last)) merged[merged.length - 1] = entry;
    else merged.push(entry);
  }
  return merged.length > limit ? merged.slice(merged.length - limit) : merged;
}

/** The host's fold of `last`: the same entry again, counted on from where `last` stood. */
function foldsInto(entry: ActivityEntry, last: ActivityEntry): boolean {
  return (
    (entry.count ?? 1) > (last.count ?? 1) &&
    entry.kind === last.kind &&
    entry.message === last.message &&
    JSON.stringify(entry.uris ?? []) === JSON.stringify(last.uris ?? [])
  );
}
