// The history across servers as a person reads it: every server's entries by time, narrowed by
// server, folder and kind, and written out as text (Copy, a .txt download) or JSON (a .json one).
// Pure, so the rules are tested alone.
import type { ActivityEntry, ActivityKind, ServerId } from '../../../shared/domain.js';
import { uriToPath } from '../file-path.js';

export interface HistoryRow {
  /** Unique across servers: sequence numbers are per server. */
  key: string;
  serverId: ServerId;
  entry: ActivityEntry;
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

export function historyRows(byServer: ReadonlyMap<ServerId, readonly ActivityEntry[]>, filter: HistoryFilter): HistoryRow[] {
  const rows: HistoryRow[] = [];
  for (const [serverId, entries] of byServer) {
    if (filter.serverId !== undefined && serverId !== filter.serverId) continue;
    for (const entry of entries) {
      if (!kindMatches(entry, filter.kind)) continue;
      if (filter.folder !== undefined && !namesFolder(entry, filter.folder)) continue;
      rows.push({ key: `${serverId}:${entry.seq}`, serverId, entry });
    }
  }
  // Oldest first; the same moment keeps each server's own order.
  return rows.sort((a, b) => a.entry.at - b.entry.at || (a.serverId === b.serverId ? a.entry.seq - b.entry.seq : 0));
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

/** One line per entry, oldest first: "2026-11-27T01:42:00.000Z  filesystem  Grants  Granted ~/code/a (read-only), from the CLI." */
export function historyText(rows: readonly HistoryRow[], words: RowWords): string {
  return rows
    .map(({ serverId, entry }) => {
      const count = (entry.count ?? 1) > 1 ? ` (×${entry.count})` : '';
      return `${new Date(entry.at).toISOString()}  ${words.server(serverId)}  ${words.kind(entry.kind)}${count}  ${words.message(entry)}`;
    })
    .join('\n');
}

/** The same rows as data for scripts: the words as shown and the entry as the host wrote it. */
export function historyJson(rows: readonly HistoryRow[], words: RowWords): string {
  const items = rows.map(({ serverId, entry }) => ({
    at: new Date(entry.at).toISOString(),
    serverId,
    server: words.server(serverId),
    kind: entry.kind,
    text: words.message(entry),
    entry,
  }));
  return `${JSON.stringify(items, null, 2)}\n`;
}
