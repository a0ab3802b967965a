// The registry on disk: one JSON file written atomically through conf (electron-store in the
// desktop app, same format). Loading recovers from a corrupt file, migrates old schema versions,
// and an external edit (the CLI, another window) is picked up live through a directory watch.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { writeFile as atomicWriteFile, writeFileSync as atomicWriteFileSync } from 'atomically';
import Conf, { type Options as ConfOptions } from 'conf';
import { z } from 'zod';
import type { Notice, Registry } from '../../shared/domain.js';
import { emptyRegistry, registrySchema } from '../../shared/registry-schema.js';
import { CodedError } from '../../shared/result.js';
import { acquireFileLock, withFileLock } from './file-lock.js';
import { migrateRegistry } from './registry-migrations.js';

export const CONFIG_FILE = 'config.json';
export const LAST_GOOD_FILE = 'config.last-good.json';

type StoredShape = Registry & { __internal__?: unknown } & Record<string, unknown>;
/** The desktop app passes electron-store here (a Conf subclass); Node code uses conf itself. */
export type ConfFactory = (options: ConfOptions<StoredShape>) => Conf<StoredShape>;

const defaultConfFactory: ConfFactory = (options) => new Conf<StoredShape>(options);

// conf wants the JSON schema of each top-level key; ours comes from the zod schema.
const jsonSchema = z.toJSONSchema(registrySchema, { io: 'input', unrepresentable: 'any' }) as {
  properties: Record<string, unknown>;
};

export function confOptions(configDir: string): ConfOptions<StoredShape> {
  return {
    cwd: configDir,
    configName: 'config',
    // Properties are validated by conf's ajv against the JSON schema derived from zod.
    schema: jsonSchema.properties as ConfOptions<StoredShape>['schema'],
    defaults: emptyRegistry(),
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
    configFileMode: 0o600,
    serialize,
    ajvOptions: { strict: false },
  };
}

// Indented so a person can read and hand-edit it; one space keeps 10,000 roots small.
function serialize(value: unknown): string {
  return JSON.stringify(value, null, 1);
}

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
  private conf: Conf<StoredShape> | undefined;
  private signature: FileSignature | undefined;
  private watcher: fs.FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  /** Set when the file comes from a newer version: we read it but never overwrite it. */
  private readOnlyReason: string | undefined;

  constructor(
    readonly configDir: string,
    private readonly createConf: ConfFactory = defaultConfFactory,
  ) {
    super();
    this.path = path.join(configDir, CONFIG_FILE);
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
        const parsed = parseRegistry(raw);
        registry = parsed.registry;
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
    // conf (electron-store in the app) validates the file against the JSON schema when it is
    // constructed: a recovered or migrated registry must be on disk first, or the very file we
    // just set aside would be read again.
    if (needsWrite) atomicWriteFileSync(this.path, serialize(registry), { mode: 0o600 });
    this.conf = this.createConf(confOptions(this.configDir));
    this.signature = needsWrite ? signatureOf(this.path) : signatureBeforeRead;
    // The last good copy is what a corrupt file is restored from next time.
    fs.writeFileSync(path.join(this.configDir, LAST_GOOD_FILE), JSON.stringify(registry), { mode: 0o600 });
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
        const { registry } = parseRegistry(lastGood);
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
   * Writes atomically (temp file + fsync + rename), in conf's file format. The app's edits use
   * `writeAsync`: conf's own setter is synchronous, and blocking the event loop for an fsync
   * quadrupled the edit -> server re-fetch round trip in the benchmark.
   */
  write(registry: Registry): void {
    this.assertWritable();
    try {
      atomicWriteFileSync(this.path, serialize(registry), { mode: 0o600 });
    } catch (error) {
      throw new CodedError('store-failed', `Could not save the registry: ${(error as Error).message}`);
    }
    this.signature = signatureOf(this.path);
  }

  async writeAsync(registry: Registry): Promise<void> {
    this.assertWritable();
    try {
      await atomicWriteFile(this.path, serialize(registry), { mode: 0o600 });
    } catch (error) {
      throw new CodedError('store-failed', `Could not save the registry: ${(error as Error).message}`);
    }
    this.signature = signatureOf(this.path);
  }

  private assertWritable(): void {
    if (this.readOnlyReason) throw new CodedError('store-failed', this.readOnlyReason);
    if (!this.conf) throw new CodedError('internal', 'The registry store is not open.');
  }

  /**
   * Takes the cross-process lock for one read-modify-write: read with `readFreshOrUndefined`,
   * write with `write`, then call the returned release function.
   */
  lock(): () => void {
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
    const { registry } = parseRegistry(raw);
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
  const result = registrySchema.safeParse(migrated.data);
  if (!result.success) {
    const first = result.error.issues[0];
    throw new CodedError('store-failed', `schema violation at ${first?.path.join('.') || '(root)'}: ${first?.message}`);
  }
  const registry = result.data as Registry;
  return migrated.migratedFrom === undefined ? { registry } : { registry, migratedFrom: migrated.migratedFrom };
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
