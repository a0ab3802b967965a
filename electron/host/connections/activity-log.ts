// A bounded log per server: a flood of roots requests keeps only the newest entries, and a run of
// identical roots requests folds into one entry with a count (a server asking 5,000 times a
// second must not evict everything else, nor allocate 5,000 entries).
import type { ActivityEvent } from '../../../shared/activity-event.js';
import type { ActivityEntry, ActivityKind, ChangeSource, GrantChanges, ServerFailure } from '../../../shared/domain.js';
import { englishActivity } from '../../../shared/i18n/activity-message.js';

/** What an entry may carry besides its event. */
export interface ActivityDetail {
  /** A 'server-failure' entry: worded from the failure's code. */
  failure?: ServerFailure | undefined;
  /** A 'grants-changed' entry: the folders and modes (worded from these). */
  grants?: GrantChanges | undefined;
  /** Who made the change it tells. */
  source?: ChangeSource | undefined;
}

export const ACTIVITY_LIMIT = 300;
/** Identical consecutive entries closer than this fold together. */
const FOLD_WINDOW_MS = 2000;

export class ActivityLog {
  private readonly ring: (ActivityEntry | undefined)[];
  private next = 0;
  private size = 0;
  private seq = 0;

  constructor(private readonly limit = ACTIVITY_LIMIT) {
    this.ring = new Array<ActivityEntry | undefined>(limit);
  }

  add(kind: ActivityKind, event: ActivityEvent, uris?: readonly string[], detail: ActivityDetail = {}): ActivityEntry {
    const { failure, grants, source } = detail;
    const now = Date.now();
    const born = {
      kind,
      code: event.code,
      ...(event.params ? { params: event.params as ActivityEntry['params'] } : {}),
      ...(failure ? { failure } : {}),
      ...(grants ? { grants } : {}),
      ...(source ? { source } : {}),
    };
    const lastIndex = (this.next - 1 + this.limit) % this.limit;
    const last = this.size > 0 ? this.ring[lastIndex] : undefined;
    if (last && last.kind === kind && last.uris === uris && now - last.at < FOLD_WINDOW_MS && sameEvent(last, born)) {
      // uris compared by reference: answers are immutable arrays shared with the exposure cache.
      const folded: ActivityEntry = { ...last, seq: ++this.seq, at: now, count: (last.count ?? 1) + 1 };
      this.ring[lastIndex] = folded;
      return folded;
    }
    const entry: ActivityEntry = { seq: ++this.seq, at: now, message: '', ...(uris ? { uris } : {}), ...born };
    // The English of the one table (shared/i18n), for logs, exports and anything that reads
    // `message`, worded when first read: wording it at once cost ~0.15 ms of each edit's round trip
    // (three entries: the grant, the list_changed, the re-fetch), before the server was told.
    let message: string | undefined;
    Object.defineProperty(entry, 'message', { enumerable: true, configurable: true, get: () => (message ??= englishActivity(born)) });
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.limit;
    this.size = Math.min(this.size + 1, this.limit);
    return entry;
  }

  /** Oldest first. */
  list(): ActivityEntry[] {
    const start = (this.next - this.size + this.limit) % this.limit;
    const out: ActivityEntry[] = [];
    for (let i = 0; i < this.size; i++) {
      const entry = this.ring[(start + i) % this.limit];
      if (entry) out.push(entry);
    }
    return out;
  }
}

/** The same event, so the same words: its code and what it carries (small objects: compared as JSON). */
function sameEvent(last: ActivityEntry, born: Omit<ActivityEntry, 'seq' | 'at' | 'message' | 'kind'>): boolean {
  return (
    last.code === born.code &&
    last.source === born.source &&
    JSON.stringify(last.params) === JSON.stringify(born.params) &&
    JSON.stringify(last.failure) === JSON.stringify(born.failure) &&
    JSON.stringify(last.grants) === JSON.stringify(born.grants)
  );
}
