// "Changes by this server": one file's diff, its content before the server's first change (kept by
// its file view) against what it holds now. Only for a path the server's record names (the record
// holds paths in its grants only): the UI, or a client of `serve`, cannot read another file this way.
import fs from 'node:fs';
import { netChanges, type FileDiff } from '../../shared/file-record.js';
import { readFileRecord, readPriorVersion } from './sandbox/audit/file-record.js';
import { lineDiff } from './text-diff.js';

/** As the view keeps them (view.c AUDIT_KEEP_FILE): a diff is for text-sized files. */
const MAX_DIFF_FILE = 256 * 1024;

/** A file's text, or why not: missing, too large, or not text (a NUL, or not UTF-8). */
function textOf(bytes: Buffer | undefined): { text?: string; why?: FileDiff['note'] } {
  if (bytes === undefined) return {};
  if (bytes.length > MAX_DIFF_FILE) return { why: 'too-large' };
  if (bytes.includes(0)) return { why: 'binary' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { why: 'binary' };
  }
}

function currentBytes(file: string): Buffer | undefined {
  try {
    // Never through a link: the path is the one the record names, and a link there now is not that file.
    const stat = fs.lstatSync(file);
    if (!stat.isFile()) return undefined;
    if (stat.size > MAX_DIFF_FILE) return Buffer.alloc(MAX_DIFF_FILE + 1);
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

export function fileDiff(dataDir: string, serverId: string, file: string): FileDiff {
  const entries = readFileRecord(dataDir, serverId);
  if (!entries.some((entry) => entry.path === file || entry.to === file)) return { file, note: 'not-recorded' };
  const change = netChanges(entries).find((each) => each.path === file);
  const prior = readPriorVersion(dataDir, serverId, file);
  // Its own new file had nothing before it; a deleted one has nothing now.
  const before = change?.change === 'created' ? { text: '' } : textOf(prior);
  const after = change?.change === 'deleted' ? { text: '' } : textOf(currentBytes(file));
  const why = before.why ?? after.why;
  if (why) return { file, note: why };
  if (before.text === undefined) return { file, note: 'no-copy' };
  if (after.text === undefined) return { file, note: 'gone' };
  const lines = lineDiff(before.text, after.text);
  return lines.some((line) => line.kind === 'added' || line.kind === 'removed') ? { file, lines } : { file, note: 'unchanged' };
}
