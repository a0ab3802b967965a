// The record of a server's destinations: one row per (what, verdict) with first, last and count,
// merged with what another process wrote, bounded, and kept across restarts (a file).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NETWORK_RECORD_ROWS, NetworkRecord, networkRecordFile, readNetworkRecord } from '../../../../../electron/host/sandbox/egress/network-record.js';
import { removeTempDirs, tempDir } from '../../../../support/index.js';

afterEach(() => removeTempDirs());

describe('the network record', () => {
  it('folds repeats into one row with a count, and a second process merges into the same file', () => {
    const file = networkRecordFile(tempDir('net-record-'), 'server/with odd id');
    expect(path.basename(file)).toBe('server_with_odd_id.json');
    const first = new NetworkRecord(file);
    first.note({ kind: 'lookup', target: 'api.github.com', verdict: 'allowed' }, 1000);
    first.note({ kind: 'lookup', target: 'api.github.com', verdict: 'allowed' }, 2000);
    first.note({ kind: 'connect', target: '192.0.2.7:443/tcp', verdict: 'refused' }, 1500);
    first.flush();
    const second = new NetworkRecord(file);
    second.note({ kind: 'lookup', target: 'other.test', verdict: 'refused' }, 3000);
    second.flush();
    expect(readNetworkRecord(file)).toEqual([
      { kind: 'lookup', target: 'other.test', verdict: 'refused', first: 3000, last: 3000, count: 1 },
      { kind: 'lookup', target: 'api.github.com', verdict: 'allowed', first: 1000, last: 2000, count: 2 },
      { kind: 'connect', target: '192.0.2.7:443/tcp', verdict: 'refused', first: 1500, last: 1500, count: 1 },
    ]);
  });

  it(`keeps the ${NETWORK_RECORD_ROWS} most recent rows`, () => {
    const file = networkRecordFile(tempDir('net-record-'), 'busy');
    const record = new NetworkRecord(file);
    for (let i = 0; i < NETWORK_RECORD_ROWS + 10; i++) record.note({ kind: 'lookup', target: `n${i}.test`, verdict: 'allowed' }, i);
    record.flush();
    const rows = readNetworkRecord(file);
    expect(rows).toHaveLength(NETWORK_RECORD_ROWS);
    expect(rows[0]?.target).toBe(`n${NETWORK_RECORD_ROWS + 9}.test`);
    expect(rows.some((row) => row.target === 'n0.test')).toBe(false);
  });

  it('reads a damaged file as no rows, and a write where the folder cannot be made loses only the rows', () => {
    const dir = tempDir('net-record-');
    const file = networkRecordFile(dir, 'damaged');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ not json');
    expect(readNetworkRecord(file)).toEqual([]);
    fs.writeFileSync(path.join(dir, 'blocked'), 'a file where a folder would be');
    const lost = new NetworkRecord(path.join(dir, 'blocked', 'x.json'));
    lost.note({ kind: 'lookup', target: 'a.test', verdict: 'allowed' });
    expect(() => lost.flush()).not.toThrow();
  });
});
