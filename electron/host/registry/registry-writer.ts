// Who wrote the registry file: each of our writers stamps the file it writes with its kind (the app,
// `serve`, the CLI) and a fresh id, so a reader can tell the activity log who changed what. The
// stamp is a hint kept beside the registry, never part of it: a file without one (an older version,
// a hand edit) or with one this version cannot read loads as before, and a writer that leaves the
// previous stamp in place (a text editor) is told apart by the id it did not renew.
import { randomBytes } from 'node:crypto';
import type { ChangeSource } from '../../../shared/domain.js';

/** The processes that write the registry through the one writer. */
export type WriterKind = 'app' | 'serve' | 'cli';

/** The file's `writtenBy`: `by` is kept as a string, so a newer version's kind is read, not refused. */
export interface WriterStamp {
  by: string;
  pid: number;
  id: string;
}

export function newStamp(by: WriterKind): WriterStamp {
  return { by, pid: process.pid, id: randomBytes(6).toString('hex') };
}

/** The stamp of a parsed file, or undefined when it has none this version can read (never throws). */
export function readStamp(data: unknown): WriterStamp | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const stamp = (data as { writtenBy?: unknown }).writtenBy;
  if (typeof stamp !== 'object' || stamp === null) return undefined;
  const { by, pid, id } = stamp as Record<string, unknown>;
  if (typeof by !== 'string' || typeof id !== 'string' || typeof pid !== 'number') return undefined;
  return { by: by.slice(0, 64), pid, id: id.slice(0, 64) };
}

/**
 * Who changed the file, as the activity log names it: the CLI when its fresh stamp says so; anyone
 * else (another copy of the app, an older version, a hand edit, a stamp left as it was) is "another
 * process". `seenId` is the stamp of the version read or written before this one.
 */
export function sourceOf(stamp: WriterStamp | undefined, seenId: string | undefined): Exclude<ChangeSource, 'this-app'> {
  if (!stamp || stamp.id === seenId) return 'other';
  return stamp.by === 'cli' ? 'cli' : 'other';
}
