// The record of what each server did in its grants (issue #29), kept in the data folder (hidden
// from every server): one line of JSON per operation in `<data>/audit/<server>.jsonl`, and reads
// summed per file in `<server>.reads.json`. Written by the process that runs the server (the app or
// a proxy) as the view reports it, a quarter second at a time, off the server's path: a file
// operation never waits for the record. Bounded: the newest entries within some days, both settings
// (shared/file-record.ts RECORD_BOUNDS), read at each trim so a change applies to a running server.
// A full disk loses entries, never the registry.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { recordBounds, type FileReadSummary, type FileRecordBounds, type FileRecordEntry } from '../../../../shared/file-record.js';
import type { ViewAuditEvent } from '../view/view-protocol.js';

/**
 * Prior versions kept for diffs: the view keeps a file's content before the server's first change
 * when the file is at most 256 KiB (view.c AUDIT_KEEP_FILE); the app keeps at most this much of
 * them per server, the first version of each path (a later one never replaces it).
 */
export const PRIOR_VERSIONS_BYTES = 64 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Files whose reads are summed, the most recently read kept. */
const READ_ROWS = 10_000;

export function fileRecordFiles(dataDir: string, serverId: string): { entries: string; reads: string; before: string } {
  const base = path.join(dataDir, 'audit', serverId.replace(/[^a-zA-Z0-9._-]/g, '_'));
  return { entries: `${base}.jsonl`, reads: `${base}.reads.json`, before: `${base}.before` };
}

/** Where the content of `file` before the server's first change is kept (named by a hash: any path, any length). */
function priorFile(dataDir: string, serverId: string, file: string): string {
  return path.join(fileRecordFiles(dataDir, serverId).before, createHash('sha256').update(file).digest('hex'));
}

/** The content of `file` before the server's first change of it, if the view kept it. */
export function readPriorVersion(dataDir: string, serverId: string, file: string): Buffer | undefined {
  try {
    return fs.readFileSync(priorFile(dataDir, serverId, file));
  } catch {
    return undefined;
  }
}

function isEntry(value: unknown): value is FileRecordEntry {
  const entry = value as FileRecordEntry;
  return typeof entry === 'object' && entry !== null && typeof entry.time === 'number' && typeof entry.op === 'string' && typeof entry.path === 'string';
}

/** The entries on disk, oldest first, from `since` (epoch ms) on; a damaged line is skipped (a record, not a setting). */
export function readFileRecord(dataDir: string, serverId: string, since = 0): FileRecordEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(fileRecordFiles(dataDir, serverId).entries, 'utf8');
  } catch {
    return [];
  }
  const entries: FileRecordEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const entry = JSON.parse(line) as unknown;
      if (isEntry(entry) && entry.time >= since) entries.push(entry);
    } catch {
      // A line cut short by a full disk or a crash: the rest stand.
    }
  }
  return entries;
}

export function readFileReads(dataDir: string, serverId: string): FileReadSummary[] {
  try {
    const rows = (JSON.parse(fs.readFileSync(fileRecordFiles(dataDir, serverId).reads, 'utf8')) as { rows?: unknown }).rows;
    return Array.isArray(rows) ? (rows as FileReadSummary[]).filter((row) => typeof row?.path === 'string' && typeof row.last === 'number') : [];
  } catch {
    return [];
  }
}

/** One server's record, written by the process that runs it. */
export class FileRecord {
  private readonly files: { entries: string; reads: string };
  private lines: number | undefined;
  private priorBytes: number | undefined;
  /** The bounds of the last trim: a change of the settings trims again at the next append. */
  private trimmedTo: FileRecordBounds | undefined;
  private readonly reads = new Map<string, FileReadSummary>();
  private readsTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly dataDir: string,
    readonly serverId: string,
    /** The bounds in force now (the settings as they are at each trim). */
    private readonly bounds: () => FileRecordBounds = () => recordBounds(undefined),
  ) {
    this.files = fileRecordFiles(dataDir, serverId);
  }

  /** One report of the view: appended in order, after the ones before it. */
  add(events: readonly ViewAuditEvent[], dropped: number): void {
    const entries: FileRecordEntry[] = [];
    for (const event of events) {
      if (event.op === 'before') {
        if (event.data) this.keepPrior(event.path, event.data);
        continue;
      }
      if (event.op === 'read') {
        const known = this.reads.get(event.path);
        this.reads.set(event.path, { path: event.path, first: known?.first ?? event.time, last: event.time, reads: (known?.reads ?? 0) + (event.reads ?? 1), bytes: (known?.bytes ?? 0) + (event.bytes ?? 0) });
        continue;
      }
      entries.push({ time: event.time, op: event.op, path: event.path, ...(event.to ? { to: event.to } : {}), ...(event.bytes !== undefined ? { bytes: event.bytes } : {}), ...(event.rule ? { rule: event.rule } : {}) });
    }
    if (dropped > 0) entries.push({ time: Date.now(), op: 'dropped', path: '', count: dropped });
    if (entries.length) this.append(entries);
    if (this.reads.size) this.readsTimer ??= setTimeout(() => this.writeReads(), 1000).unref();
  }

  /** Waits for what was reported to be on disk (the tests and a server's end). */
  async flush(): Promise<void> {
    await this.writing;
    if (this.readsTimer) {
      clearTimeout(this.readsTimer);
      this.writeReads();
    }
  }

  private append(entries: FileRecordEntry[]): void {
    const text = entries.map((entry) => JSON.stringify(entry)).join('\n') + '\n';
    this.writing = this.writing.then(async () => {
      try {
        await fs.promises.mkdir(path.dirname(this.files.entries), { recursive: true, mode: 0o700 });
        const first = this.lines === undefined;
        this.lines ??= readFileRecord(this.dataDir, this.serverId).length;
        // Trimmed in steps, not at every append: a fifth over the bound, at this process's first
        // append (what aged past its days while nothing ran goes then), and after the bounds changed.
        // A trim writes the new entries with the kept ones in one rename: a reader never sees them
        // appended to a record not yet cut to its bounds.
        const bounds = this.bounds();
        const changed = this.trimmedTo !== undefined && (bounds.entries !== this.trimmedTo.entries || bounds.days !== this.trimmedTo.days);
        if (first || changed || this.lines + entries.length > bounds.entries * 1.2) {
          await this.trim(bounds, entries);
          return;
        }
        await fs.promises.appendFile(this.files.entries, text, { mode: 0o600 });
        this.lines += entries.length;
      } catch {
        // A full disk or a removed data folder: these entries are lost, nothing else.
      }
    });
  }

  /** Writes the record with `added` after what it holds, keeping the newest entries within the bounds. */
  private async trim(bounds: FileRecordBounds, added: readonly FileRecordEntry[]): Promise<void> {
    this.trimmedTo = bounds;
    const oldest = Date.now() - bounds.days * DAY_MS;
    const all = [...readFileRecord(this.dataDir, this.serverId), ...added];
    const kept = all.filter((entry) => entry.time >= oldest).slice(-bounds.entries);
    if (kept.length === all.length) {
      // Nothing to cut: an append, as any other.
      await fs.promises.appendFile(this.files.entries, added.map((entry) => JSON.stringify(entry)).join('\n') + '\n', { mode: 0o600 });
      this.lines = all.length;
      return;
    }
    const partial = `${this.files.entries}.${process.pid}.tmp`;
    await fs.promises.writeFile(partial, kept.map((entry) => JSON.stringify(entry)).join('\n') + (kept.length ? '\n' : ''), { mode: 0o600 });
    await fs.promises.rename(partial, this.files.entries);
    this.lines = kept.length;
  }

  /** The first prior version of each path, within PRIOR_VERSIONS_BYTES per server; after the entries queued before it. */
  private keepPrior(file: string, data: Buffer): void {
    this.writing = this.writing.then(async () => {
      const target = priorFile(this.dataDir, this.serverId, file);
      try {
        if (fs.existsSync(target)) return;
        const folder = path.dirname(target);
        await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
        this.priorBytes ??= fs.readdirSync(folder).reduce((sum, name) => sum + (fs.statSync(path.join(folder, name), { throwIfNoEntry: false })?.size ?? 0), 0);
        if (this.priorBytes + data.length > PRIOR_VERSIONS_BYTES) return;
        await fs.promises.writeFile(target, data, { mode: 0o600, flag: 'wx' });
        this.priorBytes += data.length;
      } catch {
        // Kept already by another process, or no room: no diff for this file, nothing else lost.
      }
    });
  }

  private writeReads(): void {
    this.readsTimer = undefined;
    const merged = new Map(readFileReads(this.dataDir, this.serverId).map((row) => [row.path, row]));
    for (const [file, row] of this.reads) {
      const onDisk = merged.get(file);
      merged.set(file, onDisk && onDisk.last > row.last ? onDisk : { ...row, first: Math.min(row.first, onDisk?.first ?? row.first) });
    }
    this.reads.clear();
    const oldest = Date.now() - this.bounds().days * DAY_MS;
    const rows = [...merged.values()].filter((row) => row.last >= oldest).sort((a, b) => b.last - a.last).slice(0, READ_ROWS);
    try {
      fs.mkdirSync(path.dirname(this.files.reads), { recursive: true, mode: 0o700 });
      const partial = `${this.files.reads}.${process.pid}.tmp`;
      fs.writeFileSync(partial, `${JSON.stringify({ rows })}\n`, { mode: 0o600 });
      fs.renameSync(partial, this.files.reads);
    } catch {
      // Lost, nothing else.
    }
  }
}
