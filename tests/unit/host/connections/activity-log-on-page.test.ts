// The page's copy of a server's activity, fed the entries the host's own log hands out: a run the
// host folds stays one row with the host's count, and nothing shows twice.
import { describe, expect, it } from 'vitest';
import { ActivityLog } from '../../../../electron/host/connections/activity-log.js';
import { activityItems } from '../../../../renderer/src/components/activity-items.js';
import { mergeActivity } from '../../../../renderer/src/activity-merge.js';
import type { ActivityEvent } from '../../../../shared/activity-event.js';
import type { ActivityEntry } from '../../../../shared/domain.js';

const uris = Object.freeze(['file:///work/a']);
const connected: ActivityEvent = { code: 'connected', params: { protocol: '2025-06-18', server: '' } };
const answered: ActivityEvent = { code: 'roots-answered', params: { count: 1 } };
const boom: ActivityEvent = { code: 'error-text', params: { detail: 'Boom.' } };

describe('mergeActivity', () => {
  it('replaces the entry a fold counts on from, so 500 requests read ×500, not 1 + 2 + … + 500', () => {
    const log = new ActivityLog();
    let page: ActivityEntry[] = mergeActivity([], [log.add('info', connected)]);
    for (let i = 0; i < 500; i++) page = mergeActivity(page, [log.add('roots-request', answered, uris)]);
    expect(page).toEqual(log.list());
    const items = activityItems(page);
    expect(items.map((item) => [item.kind, item.count])).toEqual([
      ['info', 1],
      ['roots-request', 500],
    ]);
  });

  it('keeps a fetched log and the events that raced it in order, each once, folds included', () => {
    const log = new ActivityLog();
    log.add('info', connected);
    log.add('roots-request', answered, uris);
    const fetched = log.list();
    // Live events: one the fetch already holds, then folds of it and a new entry.
    const raced = [fetched[1] as ActivityEntry, log.add('roots-request', answered, uris), log.add('roots-request', answered, uris), log.add('error', boom)];
    const page = mergeActivity(fetched, raced);
    expect(page).toEqual(log.list());
    expect(activityItems(page).map((item) => item.count)).toEqual([1, 3, 1]);
  });

  it('appends the same message again when the host did not fold it (a new run after another entry)', () => {
    const log = new ActivityLog();
    const page = mergeActivity([], [log.add('error', boom), log.add('info', connected), log.add('error', boom)]);
    expect(page).toEqual(log.list());
    expect(page).toHaveLength(3);
  });
});
