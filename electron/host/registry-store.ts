// The registry on disk: one JSON file, `config.json` in the app's userData folder (where and how
// electron-store would keep it), written atomically (temp file, fsync, rename). Loading recovers
// from a corrupt file, migrates old schema versions and validates against the JSON schema derived
// from the zod schema (ajv, compiled once). An external edit (the CLI, another window) is picked
// up live through a directory watch.
//
// Why not conf / electron-store themselves (we did, at first): with 10,000 roots conf's
// constructor took 153 ms (it re-reads, validates and deep-compares the whole store) against a
// 100 ms load budget, and its synchronous fsync'd setter blocked the event loop during the
// servers' re-fetch, making the edit -> re-fetch round trip 3.9x a bare client. We keep their
// writer (atomically) and validator (ajv) and their file format, so the file stays compatible.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileSync as atomicWriteFileSync } from 'atomically';
import { Ajv } from 'ajv';
import { z } from 'zod';
import type { Notice, Registry } from '../../shared/domain.js';
import { emptyRegistry, registrySchema } from '../../shared/registry-schema.js';
import { CodedError } from '../../shared/result.js';
import { acquireFileLock, withFileLock } from './file-lock.js';
import { serialize, serializeToBuffers } from './registry-serialize.js';
import { migrateRegistry } from './registry-migrations.js';
import { RegistrySecrets } from './registry-secrets.js';
import type { SecretCodec } from './secret-codec.js';

export const CONFIG_FILE = 'config.json';
export const LAST_GOOD_FILE = 'config.last-good.json';

// One compiled validator for the whole file, from the zod schema, so the two cannot drift apart.
const validateRegistry = new Ajv({ allErrors: false, strict: false }).compile<Registry>(
  z.toJSONSchema(registrySchema, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as object,
);

interface FileSignature {
  mtimeMs: number;
  size: number;
  ino: number;
}

export interface RegistryStoreEvents {
  external: [Registry];
  notice: [Omit<Notice, 'id' | 'at'>];
}

export interface OpenResult {
  registry: Registry;
  notices: Omit<Notice, 'id' | 'at'>[];
}

export class RegistryStore extends EventEmitter<RegistryStoreEvents> {
  readonly path: string;
  private opened = false;
  private signature: FileSignature | undefined;
  private watcher: fs.FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  /** Set when the file comes from a newer version: we read it but never overwrite it. */
  private readOnlyReason: string | undefined;
  /** With a codec, secrets are sealed on disk and clear in memory (see registry-secrets.ts). */
  private readonly secrets: RegistrySecrets | undefined;

  constructor(
    readonly configDir: string,
    secrets?: SecretCodec,
  ) {
    super();
    this.path = path.join(configDir, CONFIG_FILE);
    this.secrets = secrets ? new RegistrySecrets(secrets) : undefined;
  }

  /** Loads the registry, recovering and migrating as needed. Never throws for a bad file. */
  open(): OpenResult {
    fs.mkdirSync(this.configDir, { recursive: true });
    // Under the lock: a first write (or a recovery) must not clobber another process's edit.
    return withFileLock(`${this.path}.lock`, () => this.openLocked());
  }

  private openLocked(): OpenResult {
    const notices: OpenResult['notices'] = [];
    // The signature is taken before the read: a write in between makes the next check re-read.
    const signatureBeforeRead = signatureOf(this.path);
    let registry: Registry;
    let needsWrite = false;
    const raw = readIfExists(this.path);
    if (raw === undefined) {
      registry = emptyRegistry();
      needsWrite = true;
    } else {
      try {
        const parsed = this.parse(raw);
        registry = parsed.registry;
        notices.push(...parsed.notices);
        // A plain secret (written by the CLI, or before secrets were sealed) is sealed right away.
        if (this.secrets?.needsSealing(registry)) needsWrite = true;
        if (parsed.migratedFrom !== undefined) {
          needsWrite = true;
          notices.push({
            level: 'info',
            code: 'store-migrated',
            message: `The registry was upgraded from schema ${parsed.migratedFrom}.`,
          });
        }
      } catch (error) {
        if (error instanceof CodedError && /newer version/.test(error.message)) {
          this.readOnlyReason = error.message;
          notices.push({ level: 'error', code: 'store-newer', message: `${error.message} Changes will not be saved.` });
          return { registry: emptyRegistry(), notices };
        }
        const recovered = this.recover(raw, error);
        registry = recovered.registry;
        notices.push(recovered.notice);
        needsWrite = true;
      }
    }
    if (needsWrite) atomicWriteFileSync(this.path, serialize(this.toDisk(registry, notices)), { mode: 0o600 });
    // Secrets kept in clear (no keychain) are said at every start; once, if toDisk said it already.
    const unprotected = this.secrets?.unprotectedNotice(registry);
    if (unprotected) notices.push(unprotected);
    this.opened = true;
    this.signature = needsWrite ? signatureOf(this.path) : signatureBeforeRead;
    // The last good copy is what a corrupt file is restored from next time (a kernel copy: no
    // second serialization of a large registry on every start).
    fs.copyFileSync(this.path, path.join(this.configDir, LAST_GOOD_FILE));
    return { registry, notices };
  }

  private recover(raw: string, error: unknown): { registry: Registry; notice: Omit<Notice, 'id' | 'at'> } {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const backup = path.join(this.configDir, `config.corrupt-${stamp}.json`);
    fs.writeFileSync(backup, raw, { mode: 0o600 });
    const why = error instanceof Error ? error.message : String(error);
    const lastGood = readIfExists(path.join(this.configDir, LAST_GOOD_FILE));
    if (lastGood !== undefined) {
      try {
        const { registry } = this.parse(lastGood);
        return {
          registry,
          notice: {
            level: 'warning',
            code: 'store-recovered',
            message: `The registry file was damaged (${why}). It was kept as ${backup} and the last good copy was restored.`,
          },
        };
      } catch {
        // Fall through: the last good copy is damaged too.
      }
    }
    return {
      registry: emptyRegistry(),
      notice: {
        level: 'error',
        code: 'store-reset',
        message: `The registry file was damaged (${why}) and no good copy was found. It was kept as ${backup}; starting empty.`,
      },
    };
  }

  /**
   * Writes atomically (temp file + fsync + rename). The app's edits use `writeAsync`: blocking
   * the event loop for an fsync quadrupled the edit -> server re-fetch round trip in the benchmark.
   */
  write(registry: Registry): void {
    this.assertWritable();
    try {
      atomicWriteFileSync(this.path, serialize(this.toDisk(registry)), { mode: 0o600 });
    } catch (error) {
      throw new CodedError('store-failed', `Could not save the registry: ${(error as Error).message}`);
    }
    this.signature = signatureOf(this.path);
  }

  async writeAsync(registry: Registry): Promise<void> {
    this.assertWritable();
    try {
      await writeFileAtomic(this.path, serializeToBuffers(this.toDisk(registry)));
    } catch (error) {
      throw new CodedError('store-failed', `Could not save the registry: ${(error as Error).message}`);
    }
    this.signature = signatureOf(this.path);
  }

  /** Parses a file's text and opens its secrets (what cannot be opened stays sealed). */
  private parse(raw: string): { registry: Registry; migratedFrom?: number; notices: Omit<Notice, 'id' | 'at'>[] } {
    const parsed = parseRegistry(raw);
    if (!this.secrets) return { ...parsed, notices: [] };
    return { ...parsed, ...this.secrets.open(parsed.registry) };
  }

  /**
   * What goes on disk: secrets sealed where the OS allows. What the user should know about it
   * (secrets left in clear) goes to `notices` while opening (nobody listens yet), else is emitted.
   */
  private toDisk(registry: Registry, notices?: Omit<Notice, 'id' | 'at'>[]): Registry {
    if (!this.secrets) return registry;
    const sealed = this.secrets.seal(registry);
    const unprotected = this.secrets.unprotectedNotice(registry);
    for (const notice of [...(unprotected ? [unprotected] : []), ...this.secrets.takeNotices()]) {
      if (notices) notices.push(notice);
      else this.emit('notice', notice);
    }
    return sealed;
  }

  private assertWritable(): void {
    if (this.readOnlyReason) throw new CodedError('store-failed', this.readOnlyReason);
    if (!this.opened) throw new CodedError('internal', 'The registry store is not open.');
  }

  /**
   * Takes the cross-process lock for one read-modify-write: read with `readFreshOrUndefined`,
   * write with `write`, then call the returned release function.
   */
  lock(): () => void {
    // The folder may have been removed under us: recreate it, our copy in memory is complete.
    fs.mkdirSync(this.configDir, { recursive: true });
    return acquireFileLock(`${this.path}.lock`);
  }

  /** `readIfChanged`, but a file that cannot be read right now (a hand edit in progress) is undefined. */
  readFreshOrUndefined(): Registry | undefined {
    try {
      return this.readIfChanged();
    } catch {
      return undefined;
    }
  }

  /** The file's current content when another process changed it since we last read or wrote it. */
  readIfChanged(): Registry | undefined {
    // Taken before the read, so a write racing with the read is caught by the next check.
    const now = signatureOf(this.path);
    if (sameSignature(now, this.signature)) return undefined;
    const raw = readIfExists(this.path);
    if (raw === undefined) return undefined;
    const { registry } = this.parse(raw);
    this.signature = now;
    return registry;
  }

  /** Watches the directory (atomic writes replace the file) and emits `external` for edits of others. */
  watch(debounceMs = 20): void {
    if (this.watcher) return;
    this.watcher = fs.watch(this.configDir, { persistent: false }, (_event, filename) => {
      if (filename !== null && filename !== CONFIG_FILE) return;
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.checkExternal(), debounceMs);
    });
    this.watcher.on('error', () => this.unwatch());
  }

  private checkExternal(): void {
    try {
      const registry = this.readIfChanged();
      if (registry) this.emit('external', registry);
    } catch (error) {
      // A half-written or invalid external edit: keep what we have, say so, overwrite nothing.
      this.signature = signatureOf(this.path);
      this.emit('notice', {
        level: 'warning',
        code: 'store-external-invalid',
        message: `An outside edit of the registry was ignored: ${(error as Error).message}`,
      });
    }
  }

  unwatch(): void {
    clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = undefined;
  }

  get readOnly(): boolean {
    return this.readOnlyReason !== undefined;
  }
}

export function parseRegistry(raw: string): { registry: Registry; migratedFrom?: number } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new CodedError('store-failed', `not valid JSON (${(error as Error).message})`);
  }
  const migrated = migrateRegistry(json);
  if (!validateRegistry(migrated.data)) {
    const first = validateRegistry.errors?.[0];
    throw new CodedError('store-failed', `schema violation at ${first?.instancePath || '(root)'}: ${first?.message}`);
  }
  const registry = stripUnknown(migrated.data);
  return migrated.migratedFrom === undefined ? { registry } : { registry, migratedFrom: migrated.migratedFrom };
}

/**
 * Temp file in the same folder, fsync, rename: a reader sees the old file or the new one, never a
 * torn one, and a crash leaves at most a stray temp file. (atomically's async writeFile took
 * 90-110 ms for a 2.2 MB registry inside the host against 10-15 ms for these four calls.)
 */
async function writeFileAtomic(file: string, pieces: Buffer[]): Promise<void> {
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const handle = await fs.promises.open(temp, 'w', 0o600);
  try {
    // One writev for every piece; a short write (rare, but allowed) goes on from where it stopped.
    const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
    const { bytesWritten } = await handle.writev(pieces);
    if (bytesWritten < total) await handle.write(Buffer.concat(pieces).subarray(bytesWritten), 0, total - bytesWritten, bytesWritten);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

/** Keeps only the registry's own keys (a file may carry others, e.g. electron-store's __internal__). */
function stripUnknown(data: Registry): Registry {
  const { schemaVersion, roots, servers, grants, settings } = data;
  return { schemaVersion, roots, servers, grants, settings };
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function signatureOf(file: string): FileSignature | undefined {
  try {
    const stat = fs.statSync(file);
    return { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino };
  } catch {
    return undefined;
  }
}

function sameSignature(a: FileSignature | undefined, b: FileSignature | undefined): boolean {
  return a?.mtimeMs === b?.mtimeMs && a?.size === b?.size && a?.ino === b?.ino;
}
