// The record's store: the view's reports appended in order, reads summed per file, bounded by count
// and age, and a damaged line or a full disk losing entries, never more.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileRecord, fileRecordFiles, readFileReads, readFileRecord } from '../../../../../electron/host/sandbox/audit/file-record.js';
import { AUDIT_OPS, FrameReader } from '../../../../../electron/host/sandbox/view/view-protocol.js';
import { parseSince } from '../../../../../electron/cli/commands/audit-command.js';
import { recordBounds } from '../../../../../shared/file-record.js';
import { removeTempDirs, tempDir } from '../../../../support/index.js';

const DAY = 24 * 60 * 60 * 1000;

afterEach(() => removeTempDirs());

describe('the file record', () => {
  it('appends operations in order, sums reads per file, and keeps the newest within its bounds', async () => {
    const dataDir = tempDir('file-record-');
    const record = new FileRecord(dataDir, 'srv', () => ({ entries: 10, days: 30 }));
    const now = Date.now();
    for (let i = 0; i < 14; i++) record.add([{ op: 'create', time: now + i, path: `/p/f${i}` }], 0);
    record.add([{ op: 'read', time: now, path: '/p/a', bytes: 10, reads: 2 }, { op: 'read', time: now + 5, path: '/p/a', bytes: 5, reads: 1 }], 2);
    await record.flush();
    const entries = readFileRecord(dataDir, 'srv');
    // Trimmed once a fifth over the bound: never more than 12 kept, the oldest gone first.
    expect(entries.length).toBeLessThanOrEqual(12);
    expect(entries.at(-1)).toMatchObject({ op: 'dropped', count: 2 });
    expect(entries.at(-2)?.path).toBe('/p/f13');
    expect(readFileReads(dataDir, 'srv')).toEqual([{ path: '/p/a', first: now, last: now + 5, reads: 3, bytes: 15 }]);
    expect(readFileRecord(dataDir, 'srv', now + 12).map((entry) => entry.path)).toEqual(['/p/f12', '/p/f13']);
  });

  it('drops entries older than its days, skips a damaged line, and loses only entries where it cannot write', async () => {
    const dataDir = tempDir('file-record-');
    const { entries: file } = fileRecordFiles(dataDir, 'srv');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = Date.now() - 40 * 24 * 60 * 60 * 1000;
    fs.writeFileSync(file, `${JSON.stringify({ time: old, op: 'create', path: '/p/old' })}\n{"time": 1, "op": "cre\n`);
    const record = new FileRecord(dataDir, 'srv');
    record.add([{ op: 'mkdir', time: Date.now(), path: '/p/new' }], 0);
    await record.flush();
    expect(readFileRecord(dataDir, 'srv').map((entry) => entry.path)).toEqual(['/p/new']);
    const blocked = tempDir('file-record-');
    fs.writeFileSync(path.join(blocked, 'audit'), 'a file where the folder would be');
    const lost = new FileRecord(blocked, 'srv');
    lost.add([{ op: 'create', time: Date.now(), path: '/p/x' }], 0);
    await expect(lost.flush()).resolves.toBeUndefined();
  });

  it('trims to the bounds as they are at each append: a lowered setting cuts the next time, an out-of-range one cuts nothing', async () => {
    const dataDir = tempDir('file-record-');
    const settings: { recordEntries?: number; recordDays?: number } = {};
    const record = new FileRecord(dataDir, 'srv', () => recordBounds(settings));
    const now = Date.now();
    const add = (from: number, count: number) => {
      for (let i = from; i < from + count; i++) record.add([{ op: 'create', time: now - 10 * DAY + i, path: `/p/f${i}` }], 0);
    };
    add(0, 300);
    await record.flush();
    expect(readFileRecord(dataDir, 'srv')).toHaveLength(300);
    settings.recordEntries = 100;
    add(300, 1);
    await record.flush();
    expect(readFileRecord(dataDir, 'srv').map((entry) => entry.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/p/f${201 + i}`));
    // A value the settings would refuse (here set past them, as a hand edit could): the default stands.
    settings.recordEntries = 5;
    add(301, 1);
    await record.flush();
    expect(readFileRecord(dataDir, 'srv')).toHaveLength(101);
    // Days: the entries ten days old go once the setting keeps a week.
    settings.recordDays = 7;
    record.add([{ op: 'create', time: now, path: '/p/today' }], 0);
    await record.flush();
    expect(readFileRecord(dataDir, 'srv').map((entry) => entry.path)).toEqual(['/p/today']);
  });

  it("reads the helper's AUDIT frames, a refused operation with its rule", () => {
    const str = (text: string) => {
      const bytes = Buffer.from(text);
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bytes.length);
      return Buffer.concat([length, bytes]);
    };
    const event = (op: string, errno: number, bytes: number, reads: number, p: string, to: string, rule: string) => {
      const head = Buffer.alloc(25);
      head[0] = AUDIT_OPS.indexOf(op as (typeof AUDIT_OPS)[number]);
      head.writeInt32LE(errno, 1);
      head.writeBigUInt64LE(1000n, 5);
      head.writeBigUInt64LE(BigInt(bytes), 13);
      head.writeUInt32LE(reads, 21);
      return Buffer.concat([head, str(p), str(to), str(rule), Buffer.alloc(4)]);
    };
    const payload = Buffer.concat([Buffer.from([2, 0, 0, 0]), Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]), event('rename', 0, 0, 0, '/p/a', '/p/b', ''), event('mkdir', 30, 0, 0, '/p/.git', '', 'protected name')]);
    const frame = Buffer.concat([Buffer.alloc(5), payload]);
    frame.writeUInt32LE(payload.length, 0);
    frame[4] = 3;
    expect(new FrameReader().push(frame)).toEqual([
      {
        type: 'audit',
        dropped: 1,
        events: [
          { op: 'rename', time: 1000, path: '/p/a', to: '/p/b' },
          { op: 'mkdir', time: 1000, path: '/p/.git', errno: 30, rule: 'protected name' },
        ],
      },
    ]);
  });

  it('takes --since as a date or a span back from now', () => {
    const now = Date.UTC(2026, 10, 28, 12);
    expect(parseSince('2h', now)).toBe(now - 2 * 3_600_000);
    expect(parseSince('7d', now)).toBe(now - 7 * 86_400_000);
    expect(parseSince('2026-11-28T10:00:00Z', now)).toBe(Date.UTC(2026, 10, 28, 10));
    expect(() => parseSince('yesterday', now)).toThrow('--since takes a date');
  });
});
