// A server's activity log: entries worded in English when read (not on the edit's path), identical
// consecutive events folded into one with a count.
import { describe, expect, it } from 'vitest';
import { ActivityLog } from '../../../../electron/host/connections/activity-log.js';

describe('activity log', () => {
  it('words each entry in English, for whoever reads it, copies it or sends it as JSON', () => {
    const log = new ActivityLog();
    const entry = log.add('roots-request', { code: 'roots-answered', params: { count: 2 } }, ['file:///a', 'file:///b']);
    expect(entry.message).toMatch(/2/);
    expect(structuredClone(entry).message).toBe(entry.message);
    expect(JSON.parse(JSON.stringify(entry)).message).toBe(entry.message);
    expect({ ...entry }.message).toBe(entry.message);
    expect(log.list()[0]?.message).toBe(entry.message);
  });

  it('folds the same event again into one entry with a count, and keeps a different one apart', () => {
    const log = new ActivityLog();
    const uris = ['file:///a'];
    log.add('roots-request', { code: 'roots-answered', params: { count: 1 } }, uris);
    const folded = log.add('roots-request', { code: 'roots-answered', params: { count: 1 } }, uris);
    expect(folded.count).toBe(2);
    expect(log.list()).toHaveLength(1);
    log.add('roots-request', { code: 'roots-answered', params: { count: 3 } }, uris);
    log.add('info', { code: 'roots-answered', params: { count: 3 } }, uris);
    expect(log.list().map((entry) => entry.count ?? 1)).toEqual([2, 1, 1]);
    expect(folded.message).toBe(log.list()[0]?.message);
  });
});
