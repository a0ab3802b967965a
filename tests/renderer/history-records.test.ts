// History shows what each server did (its records) beside what happened to it: the file operations
// and network destinations worded in each language, narrowed by kind and by folder.
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/domain.js';
import { activityMessage } from '../../shared/i18n/activity-message.js';
import { historyJson, historyRows, historyText } from '../../renderer/src/components/history-items.js';
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

describe('History and Activity count alike', () => {
  // A server that fails at each start: two lines of output, then its exit; three times, 30 s apart.
  // Another server connects in between: its entries come between those of the loop in time.
  const loop: ActivityEntry[] = [0, 1, 2].flatMap((round) => {
    const at = 100_000 + round * 30_000;
    return [
      { seq: round * 3 + 1, at, kind: 'stderr', message: 'Error: GITHUB_TOKEN is required', code: 'stderr', params: { line: 'Error: GITHUB_TOKEN is required' } },
      { seq: round * 3 + 2, at: at + 5, kind: 'stderr', message: ']', code: 'stderr', params: { line: ']' } },
      { seq: round * 3 + 3, at: at + 10, kind: 'error', message: 'Could not start: exited with code 1.', code: 'server-failure', failure: { code: 'exited', message: 'Exited with code 1.', exitCode: 1 } },
    ] satisfies ActivityEntry[];
  });
  const other: ActivityEntry[] = [{ ...connected, at: 115_000 }];
  const words = { server: (id: string) => id, kind: (kind: string) => kind, message: (entry: ActivityEntry) => entry.message };

  it('one row for a block of output and one for the exit, each with its count, as Activity shows them', () => {
    const rows = historyRows(new Map([['github', loop], ['fs', other]]), { kind: 'all' });
    expect(rows.map((row) => [row.serverId, row.entry.kind, row.count, row.entries.length])).toEqual([
      ['fs', 'connect', 1, 1],
      ['github', 'stderr', 3, 2],
      ['github', 'error', 3, 1],
    ]);
    // Placed and timed by the last time it happened; the first is kept for "between".
    expect(rows[1]).toMatchObject({ firstAt: 100_000, lastAt: 160_005 });
    // Narrowed to problems, the same two rows.
    expect(historyRows(new Map([['github', loop]]), { kind: 'problems' }).map((row) => row.count)).toEqual([3, 3]);
  });

  it('copies a block under its row and the count beside its kind; JSON says how often and since when', () => {
    const rows = historyRows(new Map([['github', loop]]), { kind: 'all' });
    expect(historyText(rows, words).split('\n')).toEqual([
      `${new Date(160_005).toISOString()}  github  stderr (×3)  Error: GITHUB_TOKEN is required`,
      '    ]',
      `${new Date(160_010).toISOString()}  github  error (×3)  Could not start: exited with code 1.`,
    ]);
    const [first] = JSON.parse(historyJson(rows, words)) as { count: number; firstAt: string; text: string }[];
    expect(first).toMatchObject({ count: 3, firstAt: new Date(100_000).toISOString(), text: 'Error: GITHUB_TOKEN is required\n]' });
  });
});
