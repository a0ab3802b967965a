// The registry on disk: one JSON file, `config.json` in the app's userData folder (where and how
// electron-store would keep it). This is the file layer only; the one writer that decides what goes
// in it is RegistryModel (registry-model.ts).
//
// - Reading never needs the lock (writes are atomic renames) and never trusts the file: its type and
//   size are checked first (registry-file.ts), its content against the JSON schema derived from the
//   zod schema (ajv, compiled once), and old schema versions are migrated.
// - Repairs at start-up (a first file, a migration, a corrupt file restored from the last good
//   copy) take the lock and re-read under it, so they cannot clobber another process's edit.
// - A file written by a newer version is never overwritten; an invalid hand edit is kept as a dated
//   backup before anything replaces it.
//
// Why not conf / electron-store themselves (we did, at first): with 10,000 roots conf's
// constructor took 153 ms (it re-reads, validates and deep-compares the whole store) against a
// 100 ms load budget, and its synchronous fsync'd setter blocked the event loop during the
// servers' re-fetch, making the edit -> re-fetch round trip 3.9x a bare client. We keep their
// validator (ajv) and their file format, so the file stays compatible.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { z } from 'zod';
import type { ChangeSource, Notice, Registry } from '../../../shared/domain.js';
import { emptyRegistry, registrySchema, SCHEMA_VERSION } from '../../../shared/registry-schema.js';
import { CodedError } from '../../../shared/result.js';
import { acquireFileLock, acquireFileLockAsync } from './file-lock.js';
import { isProcessAlive } from './process-alive.js';
import {
  CONFIG_FILE,
  copyFileAtomic,
  datedName,
  readRegistryText,
  RegistryReadError,
  removeStaleTemps,
  sameSignature,
  signatureOf,
  writeFileAtomic,
  writeFileAtomicSync,
  type FileSignature,
} from './registry-file.js';
import { migrateRegistry } from './registry-migrations.js';
import { dropUnknownOptIns } from './unknown-opt-ins.js';
import { RegistrySecrets } from './registry-secrets.js';
import { serialize, serializeToBuffers } from './registry-serialize.js';
import { newStamp, readStamp, sourceOf, type WriterKind, type WriterStamp } from './registry-writer.js';
import type { SecretCodec } from './secret-codec.js';
import { readViewsIndex, ServerViewsWriter, VIEWS_INDEX_FILE } from './server-views.js';

export { CONFIG_FILE };
export const LAST_GOOD_FILE = 'config.last-good.json';

export type StoreNotice = Omit<Notice, 'id' | 'at'>;

// One compiled validator for the whole file, from the zod schema, so the two cannot drift apart.
const validateRegistry = new Ajv({ allErrors: false, strict: false }).compile<Registry>(
  z.toJSONSchema(registrySchema, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as object,
);

/** The file's content could not be taken as a registry. `newer`: a later version wrote it. */
export class RegistryContentError extends CodedError {
  constructor(
    readonly kind: 'invalid' | 'newer',
    message: string,
  ) {
    super('store-failed', message);
  }
}

/** What a look at the file found. */
export type FileCheck =
  | { kind: 'unchanged' }
  | { kind: 'missing' }
  /** `source`: who wrote this version (registry-writer.ts). */
  | { kind: 'read'; registry: Registry; notices: StoreNotice[]; source: Exclude<ChangeSource, 'this-app'> }
  /** Present but not a registry: invalid JSON or schema, a newer version, not a regular file. */
  | { kind: 'unreadable'; error: RegistryContentError | RegistryReadError; text?: string }
  /** Reading failed for a reason that may pass (EIO, EMFILE): look again later. */
  | { kind: 'io-error'; error: RegistryReadError };

export interface OpenResult {
  registry: Registry;
  notices: StoreNotice[];
  /** Set when a newer version wrote the file: it is read, never overwritten. */
  newerVersion?: string | undefined;
}

export class RegistryStore {
  readonly path: string;
  private readonly lockPath: string;
  /** The version of the file our memory holds: a later check re-reads only when it differs. */
  private signature: FileSignature | undefined;
  /** With a codec, secrets are sealed on disk and clear in memory (see registry-secrets.ts). */
  private readonly secrets: RegistrySecrets | undefined;
  /** Each server's view for its proxy, written after config.json (server-views.ts). */
  private readonly views: ServerViewsWriter;
  /**
   * The file as last seen was not a valid registry (a hand edit gone wrong): its text, kept so the
   * write that replaces it can back it up first, however long after it was seen.
   */
  invalidOnDisk: { text: string; reason: string } | undefined;
  /** The writer stamp of the version our memory holds: a later version that kept it was not written by us or our peers. */
  private seenStampId: string | undefined;

  constructor(
    readonly configDir: string,
    secrets?: SecretCodec,
    /** Stamps each write with who wrote it (registry-writer.ts); none: the file says no one (a test's "other process"). */
    private readonly writer?: WriterKind,
  ) {
    this.path = path.join(configDir, CONFIG_FILE);
    this.lockPath = `${this.path}.lock`;
    this.secrets = secrets ? new RegistrySecrets(secrets) : undefined;
    this.views = new ServerViewsWriter(configDir);
  }

  /**
   * Loads the registry. Never throws for a bad file. With `repair` (the app, the CLI), a missing,
   * old or damaged file is fixed on disk under the lock; without it (a proxy, `status`), nothing is
   * written and nothing waits for the lock.
   */
  open({ repair = true }: { repair?: boolean } = {}): OpenResult {
    removeStaleTemps(this.configDir, CONFIG_FILE, isProcessAlive);
    removeStaleTemps(this.configDir, `${CONFIG_FILE}.lock`, isProcessAlive);
    const first = this.check(true);
    if (!repair) return this.openWithoutRepair(first);
    removeStaleTemps(this.configDir, VIEWS_INDEX_FILE, isProcessAlive);
    if (first.kind === 'read' && !this.needsWrite(first)) {
      this.refreshViewsAtOpen(first.registry);
      return this.keepLastGood(this.opened(first));
    }
    let release: (() => void) | undefined;
    try {
      fs.mkdirSync(this.configDir, { recursive: true });
      release = acquireFileLock(this.lockPath);
    } catch (error) {
      // No lock, no repair (a full disk, a read-only folder): run on what could be read, say why.
      const result = this.openWithoutRepair(first);
      const notice: StoreNotice = { level: 'error', code: 'store-unsaved', message: `The registry cannot be saved right now: ${(error as Error).message}` };
      return { ...result, notices: [...result.notices, notice] };
    }
    try {
      // Under the lock: another process may have fixed or changed the file since our first look.
      return this.keepLastGood(this.repairLocked(this.check(true)));
    } finally {
      release();
    }
  }

  private needsWrite(check: Extract<FileCheck, { kind: 'read' }>): boolean {
    return check.notices.some((notice) => notice.code === 'store-migrated' || notice.code === 'store-opt-ins-dropped') || (this.secrets?.needsSealing(check.registry) ?? false);
  }

  private openWithoutRepair(check: FileCheck): OpenResult {
    switch (check.kind) {
      case 'read':
        return this.opened(check);
      case 'unreadable':
        if (check.error instanceof RegistryContentError && check.error.kind === 'newer') return this.newer(check.error);
        return this.lastGoodOrEmpty(check.error.message, undefined);
      default:
        return { registry: emptyRegistry(), notices: check.kind === 'io-error' ? [ioNotice(check.error)] : [] };
    }
  }

  private repairLocked(check: FileCheck): OpenResult {
    switch (check.kind) {
      case 'read': {
        if (this.needsWrite(check)) this.writeSync(this.toDisk(check.registry, check.notices));
        // Views older than the file (a hand edit, a writer that died, a version that wrote none): made anew.
        else if (!this.viewsCurrent()) this.views.write(this.sealed(check.registry), this.signature as FileSignature, undefined);
        return this.opened(check);
      }
      case 'missing':
      case 'unchanged': {
        const registry = emptyRegistry();
        const notices: StoreNotice[] = [];
        this.writeSync(this.toDisk(registry, notices));
        return { registry, notices };
      }
      case 'io-error':
        // Nothing is written: the file may be fine, only unreadable now. The next edit reads it first.
        return { registry: emptyRegistry(), notices: [ioNotice(check.error)] };
      case 'unreadable': {
        if (check.error instanceof RegistryContentError && check.error.kind === 'newer') return this.newer(check.error);
        const backup = this.moveAside('config.corrupt');
        const restored = this.lastGoodOrEmpty(check.error.message, backup);
        this.writeSync(this.toDisk(restored.registry, restored.notices));
        return restored;
      }
    }
  }

  /** Start-up repairs: config.json (synchronously, under the lock), then the views of it. */
  private writeSync(disk: Registry): void {
    const previous = this.signature;
    this.signature = writeFileAtomicSync(this.path, serialize(this.stamped(disk)));
    this.views.write(disk, this.signature, previous);
  }

  /** The views describe the file as we last read or wrote it. */
  viewsCurrent(): boolean {
    const views = readViewsIndex(this.configDir);
    return views !== undefined && views.index.schemaVersion === SCHEMA_VERSION && sameSignature(views.index.source, this.signature);
  }

  /** Views older than the file, found at start-up: made anew if the lock comes quickly, else left to the next write. */
  private refreshViewsAtOpen(registry: Registry): void {
    if (this.viewsCurrent()) return;
    let release: (() => void) | undefined;
    try {
      release = acquireFileLock(this.lockPath, { timeoutMs: 500 });
      this.refreshViews(registry);
    } catch {
      // Busy or read-only: readers use config.json meanwhile.
    } finally {
      release?.();
    }
  }

  /**
   * After another process changed the file (a hand edit writes no views), under the lock the
   * caller holds: views made anew from `registry`, if the file is still the version it came from.
   */
  refreshViews(registry: Registry): void {
    // Compared, never check()ed: check() would record a newer file as seen and drop its content,
    // and the next flush would then write its edits over that file (a lost update).
    if (this.signature === undefined || !sameSignature(signatureOf(this.path), this.signature) || this.viewsCurrent()) return;
    this.views.write(this.sealed(registry), this.signature, undefined);
  }

  private opened(check: Extract<FileCheck, { kind: 'read' }>): OpenResult {
    const notices = [...check.notices];
    // Secrets kept in clear (no keychain) are said at every start.
    const unprotected = this.secrets?.unprotectedNotice(check.registry);
    if (unprotected) notices.push(unprotected);
    return { registry: check.registry, notices };
  }

  /**
   * The last good copy is what a damaged file is restored from next time; writers refresh it when
   * they open a good file. Through a temp file: a failed copy (a full disk) keeps the previous good
   * copy instead of destroying it.
   */
  private keepLastGood(result: OpenResult): OpenResult {
    if (this.signature !== undefined && !result.newerVersion) copyFileAtomic(this.path, path.join(this.configDir, LAST_GOOD_FILE));
    return result;
  }

  private newer(error: RegistryContentError): OpenResult {
    return {
      registry: emptyRegistry(),
      notices: [{ level: 'error', code: 'store-newer', message: `${error.message} Changes will not be saved.` }],
      newerVersion: error.message,
    };
  }

  /** The last good copy, or an empty registry; the notice says which, why, and where the damaged file went. */
  private lastGoodOrEmpty(why: string, backup: string | undefined): OpenResult {
    const kept = backup ? `. It was kept as ${backup};` : ';';
    try {
      const lastGood = readRegistryText(path.join(this.configDir, LAST_GOOD_FILE));
      if (lastGood) {
        const { registry } = this.parse(lastGood.text);
        const message = `The registry file was damaged (${why})${kept} the last good copy was restored.`;
        return { registry, notices: [{ level: 'warning', code: 'store-recovered', message }] };
      }
    } catch {
      // Fall through: the last good copy is damaged too.
    }
    const message = `The registry file was damaged (${why}) and no good copy was found${kept} starting empty.`;
    return { registry: emptyRegistry(), notices: [{ level: 'error', code: 'store-reset', message }] };
  }

  /**
   * Moves whatever is at the path (a damaged file, a directory, a FIFO, a symlink) to a dated name
   * beside it: nothing a person put there is destroyed. Returns the new name.
   */
  private moveAside(prefix: string): string | undefined {
    const target = datedName(this.configDir, prefix);
    try {
      fs.renameSync(this.path, target);
      return target;
    } catch {
      return undefined;
    }
  }

  /**
   * Looks at the file. With `force`, reads it even when its signature is the one we know. Does not
   * move `signature` on failure: the edit that failed to read is read again at the next look.
   */
  check(force = false): FileCheck {
    const now = signatureOf(this.path);
    if (!force && now !== undefined && sameSignature(now, this.signature)) return { kind: 'unchanged' };
    let read;
    try {
      read = readRegistryText(this.path);
    } catch (error) {
      if (error instanceof RegistryReadError && error.kind === 'io') return { kind: 'io-error', error };
      return { kind: 'unreadable', error: error as RegistryReadError };
    }
    if (!read) {
      this.signature = undefined;
      this.invalidOnDisk = undefined;
      return { kind: 'missing' };
    }
    try {
      const parsed = this.parse(read.text);
      this.signature = read.signature;
      this.invalidOnDisk = undefined;
      const source = sourceOf(parsed.stamp, this.seenStampId);
      this.seenStampId = parsed.stamp?.id;
      const notices = [...parsed.notices];
      if (parsed.migratedFrom !== undefined) {
        notices.push({ level: 'info', code: 'store-migrated', message: `The registry was upgraded from schema ${parsed.migratedFrom}.` });
      }
      if (parsed.droppedOptIns) {
        notices.push({
          level: 'info',
          code: 'store-opt-ins-dropped',
          message: `Left protected: ${parsed.droppedOptIns.join(', ')}. A grant chose to leave these writable, and this version does not know them as protected names.`,
        });
      }
      return { kind: 'read', registry: parsed.registry, notices, source };
    } catch (error) {
      // Content that will never parse is recorded as seen: looked at again only when it changes.
      this.signature = read.signature;
      this.invalidOnDisk = { text: read.text, reason: (error as Error).message };
      return { kind: 'unreadable', error: error as RegistryContentError, text: read.text };
    }
  }

  /** Keeps a copy of content we are about to replace (an invalid hand edit). Returns its name. */
  keepBackup(text: string, prefix = 'config.invalid'): string | undefined {
    const target = datedName(this.configDir, prefix);
    try {
      fs.writeFileSync(target, text, { mode: 0o600, flag: 'wx' });
      return target;
    } catch {
      return undefined;
    }
  }

  /** Takes the cross-process lock for one read-modify-write without blocking the event loop. */
  async lock(): Promise<() => void> {
    try {
      return await acquireFileLockAsync(this.lockPath);
    } catch (error) {
      // The folder may have been removed under us: recreate it, our copy in memory is complete.
      // Only then: made at every lock, the folder cost ~14 µs of each edit before its servers were
      // told (BENCHMARKS.md section 2).
      if (fs.existsSync(this.configDir)) throw error;
      fs.mkdirSync(this.configDir, { recursive: true });
      return acquireFileLockAsync(this.lockPath);
    }
  }

  /**
   * Writes atomically (temp file + fsync + rename), under the lock the caller holds. Not blocking
   * the event loop for the fsync matters: it quadrupled the edit -> server re-fetch round trip in
   * the benchmark. Returns notices about secrets (values left in clear).
   */
  async write(registry: Registry): Promise<StoreNotice[]> {
    const notices: StoreNotice[] = [];
    const previous = this.signature;
    const disk = this.toDisk(registry, notices);
    try {
      this.signature = await writeFileAtomic(this.path, serializeToBuffers(this.stamped(disk)));
      this.invalidOnDisk = undefined;
    } catch (error) {
      throw new CodedError('store-failed', `Could not save the registry: ${(error as Error).message}`);
    }
    this.views.write(disk, this.signature, previous);
    return notices;
  }

  /** The bytes' content: the registry and, when we write as someone, who wrote it (a fresh id each time). */
  private stamped(disk: Registry): Registry & { writtenBy?: WriterStamp } {
    const stamp = this.writer ? newStamp(this.writer) : undefined;
    this.seenStampId = stamp?.id;
    return stamp ? { ...disk, writtenBy: stamp } : disk;
  }

  /** Parses a file's text and opens its secrets (what cannot be opened stays sealed). */
  private parse(raw: string): { registry: Registry; migratedFrom?: number; stamp?: WriterStamp | undefined; droppedOptIns?: string[]; notices: StoreNotice[] } {
    const parsed = parseRegistry(raw);
    if (!this.secrets) return { ...parsed, notices: [] };
    return { ...parsed, ...this.secrets.open(parsed.registry) };
  }

  /** Secrets sealed as on disk, without the notices (the views of a file already written). */
  private sealed(registry: Registry): Registry {
    return this.secrets ? this.secrets.seal(registry) : registry;
  }

  /** What goes on disk: secrets sealed where the OS allows; what the user should know goes to `notices`. */
  private toDisk(registry: Registry, notices: StoreNotice[]): Registry {
    if (!this.secrets) return registry;
    const sealed = this.secrets.seal(registry);
    const unprotected = this.secrets.unprotectedNotice(registry);
    if (unprotected) notices.push(unprotected);
    notices.push(...this.secrets.takeNotices());
    return sealed;
  }
}

/** Parses and validates a registry file's text; throws a RegistryContentError saying why not. */
export function parseRegistry(raw: string): { registry: Registry; migratedFrom?: number; stamp?: WriterStamp | undefined; droppedOptIns?: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new RegistryContentError('invalid', `not valid JSON (${(error as Error).message})`);
  }
  let migrated;
  try {
    migrated = migrateRegistry(json);
  } catch (error) {
    throw new RegistryContentError(/newer version/.test((error as Error).message) ? 'newer' : 'invalid', (error as Error).message);
  }
  const narrowed = dropUnknownOptIns(migrated.data);
  migrated = { ...migrated, data: narrowed.data as typeof migrated.data };
  if (!validateRegistry(migrated.data)) {
    const first = validateRegistry.errors?.[0];
    throw new RegistryContentError('invalid', `schema violation at ${first?.instancePath || '(root)'}: ${first?.message}`);
  }
  const registry = stripUnknown(migrated.data);
  // Who wrote it is read apart from the registry: a stamp this version cannot read is no stamp.
  const stamp = readStamp(migrated.data);
  return {
    registry,
    stamp,
    ...(migrated.migratedFrom === undefined ? {} : { migratedFrom: migrated.migratedFrom }),
    ...(narrowed.dropped.length > 0 ? { droppedOptIns: narrowed.dropped } : {}),
  };
}

/** Keeps only the registry's own keys (a file may carry others, e.g. electron-store's __internal__). */
function stripUnknown(data: Registry): Registry {
  const { schemaVersion, roots, servers, grants, settings } = data;
  return { schemaVersion, roots, servers, grants, settings };
}

function ioNotice(error: RegistryReadError): StoreNotice {
  return { level: 'error', code: 'store-unreadable', message: `The registry could not be read: ${error.message}` };
}
