// History shows what each server did (its records) beside what happened to it: the file operations
// and network destinations worded in each language, narrowed by kind and by folder.
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/domain.js';
import { activityMessage } from '../../shared/i18n/activity-message.js';
import { historyRows } from '../../renderer/src/components/history-items.js';
import { createTranslator } from '../../shared/i18n/translate.js';

const created: ActivityEntry = { seq: 1_000_000_000, at: 10, kind: 'file', message: 'create /p/a.txt', code: 'file-op', params: { op: 'create', path: '/p/a.txt' } };
const refused: ActivityEntry = { seq: 1_000_000_001, at: 11, kind: 'file', message: 'Refused mkdir /p/.git (protected name)', code: 'file-op', params: { op: 'mkdir', path: '/p/.git', rule: 'protected name' } };
const elsewhere: ActivityEntry = { seq: 1_000_000_002, at: 12, kind: 'file', message: 'delete /q/b', code: 'file-op', params: { op: 'delete', path: '/q/b' } };
const lookup: ActivityEntry = { seq: 1_000_000_003, at: 13, kind: 'network', message: 'Refused lookup of evil.test', code: 'network-row', params: { verdict: 'refused', what: 'lookup', target: 'evil.test' } };
const connected: ActivityEntry = { seq: 5, at: 1, kind: 'connect', message: 'Connected (protocol 2025-11-25).', code: 'connected', params: { protocol: '2025-11-25', server: '' } };

describe('History with the records', () => {
  it('words each record in the person\'s language, the refused ones with their rule', () => {
    const en = createTranslator('en');
    expect(activityMessage(en, created)).toBe('Created /p/a.txt');
    expect(activityMessage(en, refused)).toBe('Refused: Made the folder /p/.git (a protected name)');
    expect(activityMessage(en, lookup)).toBe('Refused a lookup of evil.test');
    expect(activityMessage(createTranslator('de'), refused)).toBe('Abgewiesen: Ordner /p/.git angelegt (ein geschützter Name)');
    expect(activityMessage(createTranslator('zh-CN'), created)).toBe('创建了 /p/a.txt');
  });

  it('narrows by kind (files, network) and by folder (an operation at or below it)', () => {
    const byServer = new Map([['s1', [connected, created, refused, elsewhere, lookup]]]);
    expect(historyRows(byServer, { kind: 'files' }).map((row) => row.entry.params?.path)).toEqual(['/p/a.txt', '/p/.git', '/q/b']);
    expect(historyRows(byServer, { kind: 'network' }).map((row) => row.entry.params?.target)).toEqual(['evil.test']);
    expect(historyRows(byServer, { kind: 'all', folder: '/p' }).map((row) => row.entry.params?.path)).toEqual(['/p/a.txt', '/p/.git']);
    expect(historyRows(byServer, { kind: 'all' })[0]?.entry).toBe(connected);
  });
});
