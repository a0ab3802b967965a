// The history across servers as a person reads it: every server's entries by time, narrowed by
// server, folder and kind, and written out as text (Copy, a .txt download) or JSON (a .json one).
// Pure, so the rules are tested alone.
import type { ActivityEntry, ActivityKind, ServerId } from '../../../shared/domain.js';
import { uriToPath } from '../file-path.js';
import { activityItems } from './activity-items.js';

export interface HistoryRow {
  /** Unique across servers: sequence numbers are per server. */
  key: string;
  serverId: ServerId;
  /** Its first entry: the words, the kind. */
  entry: ActivityEntry;
  /** Every line of a block of output, oldest first; the one entry otherwise. */
  entries: ActivityEntry[];
  /** How many times it happened in a row: counted as the server's Activity counts (activity-items.ts). */
  count: number;
  firstAt: number;
  lastAt: number;
}

export type HistoryKind = 'all' | 'changes' | 'problems' | 'folders' | 'connection' | 'files' | 'network';
export const HISTORY_KINDS: HistoryKind[] = ['all', 'changes', 'problems', 'folders', 'connection', 'files', 'network'];

const KINDS: Record<Exclude<HistoryKind, 'all' | 'changes'>, ReadonlySet<ActivityKind>> = {
  problems: new Set(['error', 'stderr']),
  folders: new Set(['roots-request', 'list-changed', 'consent', 'grants']),
  connection: new Set(['connect', 'disconnect', 'restart', 'info']),
  // What it did, from its records: the operations in its grants, and its destinations.
  files: new Set(['file']),
  network: new Set(['network']),
};

export interface HistoryFilter {
  serverId?: ServerId | undefined;
  /** A folder's canonical path: entries that name it (a grant change, a roots answer). */
  folder?: string | undefined;
  kind: HistoryKind;
}

/**
 * Each server's entries as its Activity shows them (a block of output is one row, a retry loop's
 * repeats one row with its count), then all servers by time: History and Activity never count the
 * same happening differently (#30 item 5).
 */
export function historyRows(byServer: ReadonlyMap<ServerId, readonly ActivityEntry[]>, filter: HistoryFilter): HistoryRow[] {
  const rows: HistoryRow[] = [];
  for (const [serverId, entries] of byServer) {
    if (filter.serverId !== undefined && serverId !== filter.serverId) continue;
    const shown = entries.filter((entry) => kindMatches(entry, filter.kind) && (filter.folder === undefined || namesFolder(entry, filter.folder)));
    for (const item of activityItems(shown)) {
      const entry = item.entries[0]!;
      rows.push({ key: `${serverId}:${entry.seq}`, serverId, entry, entries: item.entries, count: item.count, firstAt: item.firstAt, lastAt: item.lastAt });
    }
  }
  // Oldest first, by when each last happened; the same moment keeps each server's own order.
  return rows.sort((a, b) => a.lastAt - b.lastAt || (a.serverId === b.serverId ? a.entry.seq - b.entry.seq : 0));
}

function kindMatches(entry: ActivityEntry, kind: HistoryKind): boolean {
  if (kind === 'all') return true;
  // A person's change: grants and settings, whoever made them.
  if (kind === 'changes') return entry.source !== undefined;
  return KINDS[kind].has(entry.kind);
}

function namesFolder(entry: ActivityEntry, folder: string): boolean {
  // An operation of its record: in the folder, or below it.
  if (entry.kind === 'file') return [entry.params?.path, entry.params?.to].some((each) => typeof each === 'string' && (each === folder || each.startsWith(`${folder}/`)));
  const grants = entry.grants;
  if (grants && [...grants.granted, ...grants.revoked, ...grants.modeChanged].some((changed) => changed.path === folder)) return true;
  return (entry.uris ?? []).some((uri) => uriToPath(uri) === folder);
}

export interface RowWords {
  server(serverId: ServerId): string;
  kind(kind: ActivityKind): string;
  message(entry: ActivityEntry): string;
}

/**
 * One line per row, oldest first: "2026-11-27T01:42:00.000Z  filesystem  Grants  Granted ~/code/a
 * (read-only), from the CLI."; a block of output goes on under it, indented; a repeat says (×N).
 */
export function historyText(rows: readonly HistoryRow[], words: RowWords): string {
  return rows
    .map((row) => {
      const count = row.count > 1 ? ` (×${row.count})` : '';
      return `${new Date(row.lastAt).toISOString()}  ${words.server(row.serverId)}  ${words.kind(row.entry.kind)}${count}  ${rowText(row, words).join('\n    ')}`;
    })
    .join('\n');
}

/** The same rows as data for scripts: the words as shown, how often, and the first entry as the host wrote it. */
export function historyJson(rows: readonly HistoryRow[], words: RowWords): string {
  const items = rows.map((row) => ({
    at: new Date(row.lastAt).toISOString(),
    ...(row.count > 1 ? { firstAt: new Date(row.firstAt).toISOString(), count: row.count } : {}),
    serverId: row.serverId,
    server: words.server(row.serverId),
    kind: row.entry.kind,
    text: rowText(row, words).join('\n'),
    entry: row.entry,
  }));
  return `${JSON.stringify(items, null, 2)}\n`;
}

/** A block of output's lines as written; any other row's words. */
function rowText(row: HistoryRow, words: RowWords): string[] {
  return row.entry.kind === 'stderr' ? row.entries.map((entry) => entry.message) : [words.message(row.entry)];
}
