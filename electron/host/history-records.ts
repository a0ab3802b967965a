// History across servers shows what each server did beside what happened to it (#29 item 4): the
// operations in its grants and its network destinations, from their records on disk, as activity
// entries with a code each UI words in its own language ('file-op', 'network-row').
import type { ActivityEntry, ServerActivityEntry, ServerId } from '../../shared/domain.js';
import { readFileRecord } from './sandbox/audit/file-record.js';
import { networkRecordFile, readNetworkRecord } from './sandbox/egress/network-record.js';

/** The newest kept per server and kind: History shows the last 200 rows of all anyway. */
const PER_SERVER = 1000;
/** Far above any activity log's sequence numbers: a record's entry never takes a log entry's key. */
const SEQ_BASE = 1_000_000_000;

export function recordEntries(dataDir: string, serverIds: readonly ServerId[], since: number): ServerActivityEntry[] {
  const out: ServerActivityEntry[] = [];
  for (const serverId of serverIds) {
    let seq = SEQ_BASE;
    for (const record of readFileRecord(dataDir, serverId, since).slice(-PER_SERVER)) {
      if (record.op === 'dropped') continue;
      const target = record.to ? `${record.path} → ${record.to}` : record.path;
      const entry: ActivityEntry = {
        seq: seq++,
        at: record.time,
        kind: 'file',
        message: record.rule ? `Refused ${record.op} ${target} (${record.rule})` : `${record.op} ${target}${record.bytes !== undefined && record.op === 'write' ? ` (${record.bytes} bytes)` : ''}`,
        code: 'file-op',
        params: { op: record.op, path: record.path, ...(record.to ? { to: record.to } : {}), ...(record.rule ? { rule: record.rule } : {}), ...(record.bytes !== undefined ? { bytes: record.bytes } : {}) },
      };
      out.push({ serverId, entry });
    }
    const rows = readNetworkRecord(networkRecordFile(dataDir, serverId)).filter((row) => row.last >= since);
    for (const row of rows.slice(0, PER_SERVER).reverse()) {
      const entry: ActivityEntry = {
        seq: seq++,
        at: row.last,
        kind: 'network',
        message: `${row.verdict === 'refused' ? 'Refused' : 'Allowed'} ${row.kind === 'lookup' ? 'lookup of' : 'connection to'} ${row.target}`,
        code: 'network-row',
        params: { verdict: row.verdict, what: row.kind, target: row.target },
        ...(row.count > 1 ? { count: row.count } : {}),
      };
      out.push({ serverId, entry });
    }
  }
  return out;
}
