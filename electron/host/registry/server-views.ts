// Per-server views of the registry, for `mcp-roots proxy`: each proxy serves one server, and at
// 10,000 roots config.json is ~2 MB that costs ~60 ms of CPU to read, parse and validate. So the
// one writer, in the same flush as config.json, also writes:
//   server-views/<server>.json   that server's record, its grants and the roots they name;
//   server-views.json            the index: which config.json version the views describe (its
//                                file signature) and each view's hash.
// A proxy reads the small index when something changes and its own view only when its hash moved:
// an edit that does not concern it costs it a stat and a few hundred bytes.
//
// config.json stays the truth; the views are a cache a reader checks before trusting. The index
// is written last, so a writer that dies between config.json and the index (or a hand edit, or an
// older version of the app that writes no views) leaves an index naming another config.json
// version: readers then read config.json itself (server-view-source.ts). Views are not fsynced:
// after a crash a torn view or index fails validation, with the same fallback.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { GrantMode, Registry, RootId, RootRecord, ServerId, ServerRecord, Settings } from '../../../shared/domain.js';
import { grantModeSchema, rootRecordSchema, SCHEMA_VERSION, serverRecordSchema, settingsSchema } from '../../../shared/registry-schema.js';
import { type FileSignature, readRegistryText, sameSignature } from './registry-file.js';

export const VIEWS_INDEX_FILE = 'server-views.json';
export const VIEWS_DIR = 'server-views';
const FORMAT = 1;

/** What one proxy needs of the registry: its server, its grants, and the roots they name (in grant order). */
export interface ServerView {
  server: ServerRecord;
  grants: Record<RootId, GrantMode>;
  roots: RootRecord[];
  /** The file record's bounds, where set (the proxy trims its server's record to them); absent: the defaults. */
  record?: Pick<Settings, 'recordEntries' | 'recordDays'> | undefined;
}

const signatureSchema = z.object({ ino: z.number(), size: z.number(), mtimeMs: z.number(), ctimeMs: z.number() });
const indexSchema = z.object({
  format: z.literal(FORMAT),
  schemaVersion: z.number(),
  source: signatureSchema,
  servers: z.array(z.object({ id: z.string(), name: z.string(), hash: z.string() })),
});
const viewFileSchema = z.object({
  format: z.literal(FORMAT),
  hash: z.string(),
  view: z.object({
    server: serverRecordSchema,
    grants: z.record(z.string(), grantModeSchema),
    roots: z.array(rootRecordSchema),
    record: settingsSchema.pick({ recordEntries: true, recordDays: true }).optional(),
  }),
});

export type ViewsIndex = z.infer<typeof indexSchema>;

/** A view's file name: readable, and distinct for ids that differ only in characters unfit for a name. */
export function viewFileName(serverId: ServerId): string {
  const digest = createHash('sha1').update(serverId).digest('hex').slice(0, 8);
  return `${serverId.replace(/[^\w-]/g, '_').slice(0, 64)}-${digest}.json`;
}

export function viewPath(configDir: string, serverId: ServerId): string {
  return path.join(configDir, VIEWS_DIR, viewFileName(serverId));
}

/** The index, when it is there and valid (undefined otherwise: the reader falls back to config.json). */
export function readViewsIndex(configDir: string): { index: ViewsIndex; signature: FileSignature } | undefined {
  try {
    const read = readRegistryText(path.join(configDir, VIEWS_INDEX_FILE));
    if (!read) return undefined;
    const parsed = indexSchema.safeParse(JSON.parse(read.text));
    return parsed.success ? { index: parsed.data, signature: read.signature } : undefined;
  } catch {
    return undefined;
  }
}

/** One server's view with the hash it was written under, or undefined when missing or invalid. */
export function readServerView(configDir: string, serverId: ServerId): { view: ServerView; hash: string } | undefined {
  try {
    const read = readRegistryText(viewPath(configDir, serverId));
    if (!read) return undefined;
    const parsed = viewFileSchema.safeParse(JSON.parse(read.text));
    if (!parsed.success || parsed.data.view.server.id !== serverId) return undefined;
    // The hash must be the body's: a view edited by hand (or by anything but the writer) is not
    // one, whatever hash it claims, so it can never stand in for config.json.
    const body = bodyText(read.text, parsed.data.hash);
    if (body === undefined || hashOfBody(body) !== parsed.data.hash) return undefined;
    return { view: parsed.data.view as ServerView, hash: parsed.data.hash };
  } catch {
    return undefined;
  }
}

/** The registry as one server's proxy sees it: only that server, its grants and their roots. */
export function registryOfView(view: ServerView | undefined): Registry {
  return {
    schemaVersion: SCHEMA_VERSION,
    roots: view?.roots ?? [],
    servers: view ? [view.server] : [],
    grants: view ? { [view.server.id]: view.grants } : {},
    settings: { locale: 'system', theme: 'system', ...view?.record },
  };
}

/** The same view taken from the whole registry (the reader's fallback, and the writer). */
export function viewOf(registry: Registry, serverId: ServerId): ServerView | undefined {
  const server = registry.servers.find((candidate) => candidate.id === serverId);
  if (!server) return undefined;
  const grants = registry.grants[serverId] ?? {};
  // Only where set: a view (and its hash) stays as it was for whoever keeps the defaults.
  const { recordEntries, recordDays } = registry.settings;
  const record = recordEntries !== undefined || recordDays !== undefined ? { record: { ...(recordEntries !== undefined ? { recordEntries } : {}), ...(recordDays !== undefined ? { recordDays } : {}) } } : {};
  return { server, grants, roots: grantedRoots(registry.roots, grants), ...record };
}

function grantedRoots(roots: readonly RootRecord[], grants: Readonly<Record<RootId, GrantMode>>): RootRecord[] {
  const byId = rootIndex(roots);
  const granted: RootRecord[] = [];
  for (const rootId of Object.keys(grants)) {
    const root = byId.get(rootId);
    if (root) granted.push(root);
  }
  return granted;
}

// Edits that leave the roots array alone (grants, servers) reuse its index.
const rootIndexes = new WeakMap<readonly RootRecord[], Map<RootId, RootRecord>>();
function rootIndex(roots: readonly RootRecord[]): Map<RootId, RootRecord> {
  let index = rootIndexes.get(roots);
  if (!index) {
    index = new Map(roots.map((root) => [root.id, root]));
    rootIndexes.set(roots, index);
  }
  return index;
}

interface Written {
  server: ServerRecord;
  grants: Readonly<Record<RootId, GrantMode>> | undefined;
  /** The registry's roots array it was last checked against, and the records it took from it. */
  rootsOf: readonly RootRecord[];
  roots: readonly RootRecord[];
  /** The file record's bounds it carries (a change of them alone changes every view). */
  recordEntries: number | undefined;
  recordDays: number | undefined;
  hash: string;
}

/**
 * The writer's side, called by the store under the registry lock right after config.json was
 * replaced. It writes only the views whose content changed, judged against the index on disk (not
 * against its own memory: another process may have written views since).
 */
export class ServerViewsWriter {
  /** Per server, the objects its last view was made of: unchanged objects mean an unchanged view. */
  private readonly memo = new Map<ServerId, Written>();

  constructor(private readonly configDir: string) {}

  /**
   * `registry` is what config.json now holds (secrets sealed as on disk), `source` its new
   * signature, `previous` the signature of the version it replaced (the version the index on disk
   * may describe). Never throws: on failure the index is removed, and readers use config.json.
   */
  write(registry: Registry, source: FileSignature, previous: FileSignature | undefined): void {
    const indexFile = path.join(this.configDir, VIEWS_INDEX_FILE);
    try {
      const onDisk = readViewsIndex(this.configDir);
      // What the views on disk hold, when the index describes the version this write replaced.
      const known = onDisk && previous && sameSignature(onDisk.index.source, previous) ? new Map(onDisk.index.servers.map((entry) => [entry.id, entry.hash])) : undefined;
      const dir = path.join(this.configDir, VIEWS_DIR);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const entries: ViewsIndex['servers'] = [];
      for (const server of registry.servers) {
        const { hash, text } = this.hashOf(registry, server);
        entries.push({ id: server.id, name: server.name, hash });
        if (known?.get(server.id) !== hash) writeSmallFile(path.join(dir, viewFileName(server.id)), text ?? this.bodyOf(registry, server).text);
      }
      if (known) {
        for (const id of known.keys()) if (!registry.servers.some((server) => server.id === id)) fs.rmSync(path.join(dir, viewFileName(id)), { force: true });
      } else {
        this.removeOthers(dir, new Set(entries.map((entry) => viewFileName(entry.id))));
      }
      const index: ViewsIndex = { format: FORMAT, schemaVersion: registry.schemaVersion, source, servers: entries };
      writeSmallFile(indexFile, JSON.stringify(index));
    } catch {
      fs.rmSync(indexFile, { force: true });
    }
  }

  /** The view's hash; its file text too when it had to be made to learn the hash. */
  private hashOf(registry: Registry, server: ServerRecord): { hash: string; text?: string } {
    const grants = registry.grants[server.id];
    const before = this.memo.get(server.id);
    const { recordEntries, recordDays } = registry.settings;
    if (before && before.server === server && before.grants === grants && before.recordEntries === recordEntries && before.recordDays === recordDays) {
      if (before.rootsOf === registry.roots || sameRoots(before.roots, grants ?? {}, registry.roots)) {
        before.rootsOf = registry.roots;
        return { hash: before.hash };
      }
    }
    const { text, hash, roots } = this.bodyOf(registry, server);
    this.memo.set(server.id, { server, grants, rootsOf: registry.roots, roots, recordEntries, recordDays, hash });
    return { hash, text };
  }

  private bodyOf(registry: Registry, server: ServerRecord): { text: string; hash: string; roots: RootRecord[] } {
    const view = viewOf(registry, server.id) as ServerView;
    const body = JSON.stringify(view);
    const hash = hashOfBody(body);
    return { text: `${viewFileHead(hash)}${body}}`, hash, roots: view.roots };
  }

  /** Views of servers that are gone, and leftovers of writers that died mid-write. */
  private removeOthers(dir: string, keep: ReadonlySet<string>): void {
    for (const name of fs.readdirSync(dir)) {
      if (!keep.has(name)) fs.rmSync(path.join(dir, name), { force: true });
    }
  }
}

/** A view file is exactly `{"format":1,"hash":"<sha1 of BODY>","view":BODY}`. */
const viewFileHead = (hash: string) => `{"format":${FORMAT},"hash":"${hash}","view":`;
const hashOfBody = (body: string) => createHash('sha1').update(body).digest('hex');
function bodyText(text: string, hash: string): string | undefined {
  const head = viewFileHead(hash);
  return text.startsWith(head) && text.endsWith('}') ? text.slice(head.length, -1) : undefined;
}

/** The roots a view was made of are still the registry's records for its grants (same objects, same order). */
function sameRoots(before: readonly RootRecord[], grants: Readonly<Record<RootId, GrantMode>>, roots: readonly RootRecord[]): boolean {
  const now = grantedRoots(roots, grants);
  return now.length === before.length && now.every((root, i) => root === before[i]);
}

/** Temp file and rename (a reader sees the old file or the new one), no fsync: views are a checked cache. */
function writeSmallFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, text, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
