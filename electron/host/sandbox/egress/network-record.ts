// The record of a server's network destinations (issue #28): every name it looked up and every
// address and port it reached or was refused, with the first and last time and how often. One
// row per (what, verdict): a server that polls one API makes one row, not a row per request. Kept
// in the data folder (hidden from every server), bounded, and read by `mcp-roots status NAME
// --network` and the app. Written off the server's path: a full disk loses rows, never a packet
// or the registry.
import fs from 'node:fs';
import path from 'node:path';
import type { NetworkRecordRow } from '../../../../shared/network-record.js';

/** Rows kept per server: the most recently seen. */
export const NETWORK_RECORD_ROWS = 1_000;
const WRITE_DELAY_MS = 500;

export function networkRecordFile(dataDir: string, serverId: string): string {
  return path.join(dataDir, 'network', `${serverId.replace(/[^a-zA-Z0-9._-]/g, '_')}.json`);
}

const keyOf = (row: Pick<NetworkRecordRow, 'kind' | 'target' | 'verdict'>) => `${row.kind} ${row.target} ${row.verdict}`;

/** The rows on disk, newest first; none for a missing or damaged file (it is a record, not a setting). */
export function readNetworkRecord(file: string): NetworkRecordRow[] {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { rows?: unknown };
    if (!Array.isArray(parsed.rows)) return [];
    return parsed.rows.filter((row): row is NetworkRecordRow => typeof row === 'object' && row !== null && typeof (row as NetworkRecordRow).target === 'string' && typeof (row as NetworkRecordRow).last === 'number');
  } catch {
    return [];
  }
}

export class NetworkRecord {
  private readonly rows = new Map<string, NetworkRecordRow>();
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly file: string) {}

  note(entry: Omit<NetworkRecordRow, 'first' | 'last' | 'count'>, at = Date.now()): void {
    const key = keyOf(entry);
    const known = this.rows.get(key);
    this.rows.set(key, known ? { ...known, ...entry, last: at, count: known.count + 1 } : { ...entry, first: at, last: at, count: 1 });
    this.timer ??= setTimeout(() => this.flush(), WRITE_DELAY_MS).unref();
  }

  /** Merges this process's rows into the file (another process, the app or a proxy, may write it too). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.rows.size === 0) return;
    const merged = new Map(readNetworkRecord(this.file).map((row) => [keyOf(row), row]));
    for (const [key, row] of this.rows) {
      const onDisk = merged.get(key);
      merged.set(key, onDisk && onDisk.last > row.last ? onDisk : { ...row, first: Math.min(row.first, onDisk?.first ?? row.first) });
    }
    const rows = [...merged.values()].sort((a, b) => b.last - a.last).slice(0, NETWORK_RECORD_ROWS);
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const partial = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(partial, `${JSON.stringify({ rows })}\n`, { mode: 0o600 });
      fs.renameSync(partial, this.file);
    } catch {
      // A full disk or a removed data folder: these rows are lost, nothing else.
    }
  }
}
