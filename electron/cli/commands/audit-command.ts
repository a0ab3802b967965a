// `mcp-roots audit SERVER [--since WHEN] [--changes] [--json]`: what a server did in its grants, as
// its file view recorded it (issue #29): each operation, done or refused with the rule, or with
// --changes only the net changes (a file made and removed again is none). Where the server has no
// file view (bind mounts), there is no record, and this says so rather than print an empty one.
import type { Command } from 'commander';
import { netChanges, type FileRecordEntry, type NetChange } from '../../../shared/file-record.js';
import { englishOf } from '../../../shared/i18n/activity-message.js';
import { readFileRecord, readFileReads } from '../../host/sandbox/audit/file-record.js';
import { sandboxSupport } from '../../host/sandbox/probe-cache.js';
import { findServerRef } from '../../host/registry/registry-refs.js';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { GROUP, jsonOption } from './collect.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** WHEN: an ISO date or time (2026-11-28, 2026-11-28T10:00), or a span back from now (30m, 2h, 7d). */
export function parseSince(word: string, now = Date.now()): number {
  const span = /^(\d+)([mhd])$/.exec(word.trim());
  if (span) return now - Number(span[1]) * (UNITS[span[2] as string] as number);
  const at = /^\d{4}-\d{2}-\d{2}/.test(word) ? Date.parse(word) : Number.NaN;
  if (Number.isNaN(at)) throw new UsageError(`--since takes a date (2026-11-28, 2026-11-28T10:00) or a span back from now (30m, 2h, 7d); got "${word}".`);
  return at;
}

const iso = (ms: number) => new Date(ms).toISOString();

function entryLine(entry: FileRecordEntry): string {
  const when = iso(entry.time).replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  if (entry.op === 'dropped') return `  ${when}  ${entry.count} operation(s) not recorded (the view's buffer was full)`;
  // Worded from the one table, as the UI words the same record (#29 item 3).
  const words = englishOf({
    code: 'file-op',
    params: { op: entry.op, path: entry.path, ...(entry.to ? { to: entry.to } : {}), ...(entry.bytes !== undefined ? { bytes: entry.bytes } : {}), ...(entry.rule ? { rule: entry.rule } : {}) },
  });
  return `  ${when}  ${words}`;
}

function changeLine(change: NetChange): string {
  return `  ${change.change.padEnd(8)}  ${change.path}${change.kind === 'folder' ? '/' : ''}${change.from ? `  (from ${change.from})` : ''}`;
}

export function addAuditCommand(program: Command, context: CliContext): void {
  program
    .command('audit')
    .description('what a server did in its grants: files made, written, renamed, removed, and what its sandbox refused')
    .argument('<server>', 'id, short id or name')
    .option('--since <when>', 'from a date (2026-11-28) or a span back from now (30m, 2h, 7d)')
    .option('--changes', 'only the net changes: created, modified, deleted')
    .addOption(jsonOption())
    .helpGroup(GROUP.servers)
    .addHelpText('after', '\nExamples:\n  mcp-roots audit fs --since 2h\n  mcp-roots audit fs --changes --json')
    .action((serverRef: string, options: { since?: string; changes?: boolean; json?: boolean }) =>
      context.session(async (session) => {
        const server = findServerRef(session.registry(), serverRef);
        const since = options.since ? parseSince(options.since) : 0;
        const dataDir = context.configDir();
        const entries = readFileRecord(dataDir, server.id, since);
        if (options.changes) {
          const changes = netChanges(entries);
          if (options.json) return context.print(JSON.stringify(changes.map((change) => ({ ...change, last: iso(change.last) })), null, 2));
          return context.print(changes.length ? [`${server.name}: net changes${options.since ? ` since ${iso(since)}` : ''}`, ...changes.map(changeLine)].join('\n') : `${server.name}: no changes recorded${options.since ? ` since ${iso(since)}` : ''}.`);
        }
        if (options.json) return context.print(JSON.stringify(entries.map((entry) => ({ ...entry, time: iso(entry.time) })), null, 2));
        if (entries.length === 0) {
          // No record at all where the server has no file view: said, never an empty record passed off as "nothing done".
          const support = await sandboxSupport(dataDir);
          const why = support.kind !== 'bwrap' ? `its sandbox here is ${support.kind === 'none' ? 'advisory' : support.kind}, which records nothing` : support.view?.available === false ? `no file view here (${support.view.reason}), so its grants are bind mounts, which record nothing` : undefined;
          return context.print(why ? `${server.name}: no record: ${why}.` : `${server.name}: nothing recorded${options.since ? ` since ${iso(since)}` : ''}.`);
        }
        const reads = readFileReads(dataDir, server.id).filter((row) => row.last >= since);
        return context.print([`${server.name}: ${entries.length} operation(s)${options.since ? ` since ${iso(since)}` : ''}`, ...entries.map(entryLine), ...(reads.length ? [`and read ${reads.length} file(s) (reads are summed per file, not listed one by one)`] : [])].join('\n'));
      }),
    );
}
