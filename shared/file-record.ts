// What a server did in its grants, as the file view records it (issue #29): the shapes the CLI's
// `mcp-roots audit`, the app's "Changes by this server" and the store share, and the one place that
// folds a record into its net changes.
import type { DiffLine } from './import-types.js';

/**
 * How much of each server's record is kept: two settings (Settings.recordEntries, recordDays), each
 * with its default and the range it must keep to. The minimums keep a record worth reviewing; the
 * maximums keep its file small enough to read whole (~100 bytes an entry: 10 MB at 100,000).
 */
export const RECORD_BOUNDS = {
  recordEntries: { min: 100, max: 100_000, default: 10_000 },
  recordDays: { min: 1, max: 365, default: 30 },
} as const;

export type RecordBoundName = keyof typeof RECORD_BOUNDS;

/** The bounds a record is trimmed to: the newest `entries` within `days` days. */
export interface FileRecordBounds {
  entries: number;
  days: number;
}

/** The bounds in force for these settings: each default where not set, or where out of its range (a record is never cut by a bad value). */
export function recordBounds(settings: { recordEntries?: number | undefined; recordDays?: number | undefined } | undefined): FileRecordBounds {
  const value = (name: RecordBoundName) => {
    const set = settings?.[name];
    return set !== undefined && recordBoundProblem(name, set) === undefined ? set : RECORD_BOUNDS[name].default;
  };
  return { entries: value('recordEntries'), days: value('recordDays') };
}

/** Why a value cannot be this bound, in English (the schema and the UI both say it), or undefined when it can. */
export function recordBoundProblem(name: RecordBoundName, value: unknown): string | undefined {
  const { min, max } = RECORD_BOUNDS[name];
  const what = name === 'recordEntries' ? 'The entries kept per server' : 'The days kept';
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) return `${what} must be a whole number from ${min} to ${max} (${name})`;
  return undefined;
}

export type FileOp = 'create' | 'mkdir' | 'write' | 'truncate' | 'rename' | 'delete' | 'rmdir' | 'chmod' | 'symlink' | 'link';

/** One operation, done or refused. `audit --json` prints these (time as an ISO string). */
export interface FileRecordEntry {
  /** Epoch ms. */
  time: number;
  op: FileOp | 'dropped';
  path: string;
  /** A rename's or a hard link's new path. */
  to?: string | undefined;
  /** Bytes written (summed over a quarter second), a truncation's new size, a chmod's mode. */
  bytes?: number | undefined;
  /** Set when refused: the rule that refused it. */
  rule?: string | undefined;
  /** 'dropped': how many operations the view could not report (its buffer was full). */
  count?: number | undefined;
}

/** Reads of one file, summed: never one row per read. */
export interface FileReadSummary {
  path: string;
  first: number;
  last: number;
  /** Read requests the view answered (each up to 1 MiB). */
  reads: number;
  bytes: number;
}

/** One file's diff for "Changes by this server", or why there is none. */
export interface FileDiff {
  file: string;
  lines?: DiffLine[] | undefined;
  /**
   * no-copy: its content before was not kept (over 256 KiB then, or the budget was full); binary:
   * not text; too-large: over 256 KiB now; gone: no longer there; unchanged: the same as before;
   * not-recorded: a path its record does not name.
   */
  note?: 'no-copy' | 'binary' | 'too-large' | 'gone' | 'unchanged' | 'not-recorded' | undefined;
}

/** "Changes by this server": what `servers.changes` answers. */
export interface ServerChanges {
  changes: NetChange[];
  /** Operations its sandbox refused, newest last, with the rule that refused each. */
  refused: FileRecordEntry[];
  /** Files it read (reads are summed per file). */
  filesRead: number;
  /** Operations the view could not report (its buffer was full). */
  dropped: number;
}

export type NetChange = { path: string; change: 'created' | 'modified' | 'deleted'; kind: 'file' | 'folder' | 'link'; from?: string | undefined; last: number };

/**
 * The net changes of a record, in order of the last operation on each path: a file made and then
 * removed is no change; a rename is the old path deleted and the new one created from it; a path
 * that existed before and was replaced is modified. Refused operations change nothing.
 */
export function netChanges(entries: readonly FileRecordEntry[]): NetChange[] {
  type State = { change: NetChange['change']; existed: boolean; kind: NetChange['kind']; from?: string | undefined; last: number };
  const states = new Map<string, State>();
  const touch = (path: string, time: number, kind: NetChange['kind'], made: boolean, from?: string) => {
    const known = states.get(path);
    // Made where something was deleted that existed before: the path was replaced (modified).
    if (made) states.set(path, { change: known?.existed ? 'modified' : 'created', existed: known?.existed ?? false, kind, from, last: time });
    else states.set(path, { change: known && known.change !== 'deleted' ? known.change : 'modified', existed: known?.existed ?? true, kind: known?.kind ?? kind, from: known?.from, last: time });
  };
  const remove = (path: string, time: number, kind: NetChange['kind']) => {
    const known = states.get(path);
    if (known && !known.existed) states.delete(path);
    else states.set(path, { change: 'deleted', existed: true, kind: known?.kind ?? kind, last: time });
  };
  for (const entry of [...entries].sort((a, b) => a.time - b.time)) {
    if (entry.rule || entry.op === 'dropped') continue;
    switch (entry.op) {
      case 'create':
        touch(entry.path, entry.time, 'file', true);
        break;
      case 'mkdir':
        touch(entry.path, entry.time, 'folder', true);
        break;
      case 'symlink':
        touch(entry.path, entry.time, 'link', true);
        break;
      case 'link':
        if (entry.to) touch(entry.to, entry.time, 'file', true);
        break;
      case 'write':
      case 'truncate':
      case 'chmod':
        touch(entry.path, entry.time, 'file', false);
        break;
      case 'delete':
        remove(entry.path, entry.time, 'file');
        break;
      case 'rmdir':
        remove(entry.path, entry.time, 'folder');
        break;
      case 'rename': {
        if (!entry.to) break;
        const moved = states.get(entry.path);
        const kind = moved?.kind ?? 'file';
        remove(entry.path, entry.time, kind);
        const target = states.get(entry.to);
        // What it became: made here (from the old path), or a replacement of what was there before.
        const existed = target ? target.existed : false;
        states.set(entry.to, { change: existed ? 'modified' : 'created', existed, kind, from: moved && !moved.existed ? moved.from : entry.path, last: entry.time });
        break;
      }
    }
  }
  return [...states].map(([path, state]) => ({ path, change: state.change, kind: state.kind, ...(state.from ? { from: state.from } : {}), last: state.last })).sort((a, b) => a.last - b.last);
}
