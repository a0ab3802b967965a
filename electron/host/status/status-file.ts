// Small JSON files through which running processes say what they are doing, for others to read:
// each `mcp-roots proxy` (proxies/), and the app or `mcp-roots serve` with its servers (running/).
// Written at most a few times per second (a chatty session must not turn into disk traffic),
// atomically (a reader may look at any moment), rewritten as a heartbeat so a reused pid cannot
// keep a dead file alive, and removed on exit; readers drop the files of processes that died
// without cleaning up.
import { writeFileSync as atomicWriteFileSync } from 'atomically';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../registry/process-alive.js';

/** A writer rewrites its file at least this often. */
export const STATUS_HEARTBEAT_MS = 15_000;
const STALE_AFTER_MS = 4 * STATUS_HEARTBEAT_MS;

export interface StatusFileOptions<T> {
  minIntervalMs?: number;
  log?: (line: string) => void;
  /** Read at each write: fields that are cheaper to collect than to keep current. */
  refresh?: () => Partial<T>;
}

export class StatusFileWriter<T extends { updatedAt: number }> {
  private status: T;
  private timer: NodeJS.Timeout | undefined;
  private lastWriteAt = 0;
  private readonly heartbeat: NodeJS.Timeout;
  private removed = false;

  constructor(
    readonly file: string,
    initial: T,
    private readonly options: StatusFileOptions<T> = {},
  ) {
    this.status = initial;
    this.write();
    this.heartbeat = setInterval(() => this.write(), STATUS_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get current(): T {
    return this.status;
  }

  /** Something changed: written within the minimum interval. */
  update(patch: Partial<T> = {}): void {
    this.status = { ...this.status, ...patch };
    if (this.timer || this.removed) return;
    const wait = Math.max(0, this.lastWriteAt + (this.options.minIntervalMs ?? 250) - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, wait);
    this.timer.unref();
  }

  remove(): void {
    this.removed = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    fs.rmSync(this.file, { force: true });
  }

  private write(): void {
    if (this.removed) return;
    this.lastWriteAt = Date.now();
    try {
      if (this.options.refresh) this.status = { ...this.status, ...this.options.refresh() };
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      // Renamed into place whole, but not fsync'd: it says what a live process is doing, and after a
      // crash of the machine that process is gone anyway. The fsync blocked each proxy's start (84 ms
      // of a proxy's life in a profile, its first write before its server starts).
      atomicWriteFileSync(this.file, JSON.stringify({ ...this.status, updatedAt: this.lastWriteAt }), { mode: 0o600, fsync: false });
    } catch (error) {
      // The status is a courtesy to other processes: failing to write it must never break the work.
      this.options.log?.(`could not write the status file: ${(error as Error).message}`);
    }
  }
}

export interface ReadStatusOptions {
  isAlive?: (pid: number) => boolean;
  now?: number;
}

/**
 * The status files in `dir` whose process is alive and still writing. Files of dead or silent
 * processes are removed on the way; a file that cannot be read (half-written, foreign) is skipped.
 */
export async function readLiveStatusFiles<T extends { updatedAt: number }>(
  dir: string,
  parse: (value: unknown) => T,
  pidOf: (status: T) => number,
  options: ReadStatusOptions = {},
): Promise<T[]> {
  const isAlive = options.isAlive ?? isProcessAlive;
  const now = options.now ?? Date.now();
  let names: string[];
  try {
    names = (await fsp.readdir(dir)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const live: T[] = [];
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      let status: T;
      try {
        status = parse(JSON.parse(await fsp.readFile(file, 'utf8')));
      } catch {
        return;
      }
      if (!isAlive(pidOf(status)) || now - status.updatedAt > STALE_AFTER_MS) {
        await fsp.rm(file, { force: true });
        return;
      }
      live.push(status);
    }),
  );
  return live;
}
