// A bounded log per server: a flood of roots requests keeps only the newest entries.
import type { ActivityEntry, ActivityKind } from '../../shared/domain.js';

export const ACTIVITY_LIMIT = 300;

export class ActivityLog {
  private readonly entries: ActivityEntry[] = [];
  private seq = 0;

  constructor(private readonly limit = ACTIVITY_LIMIT) {}

  add(kind: ActivityKind, message: string, uris?: readonly string[]): ActivityEntry {
    // uris is kept by reference: answers are immutable arrays shared with the exposure cache.
    const entry: ActivityEntry = { seq: ++this.seq, at: Date.now(), kind, message, ...(uris ? { uris } : {}) };
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    return entry;
  }

  list(): ActivityEntry[] {
    return [...this.entries];
  }
}
