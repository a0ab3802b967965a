// Watches one folder for changes to the files in it, and keeps watching when the folder itself is
// deleted and created again (a person cleaning up, a sync tool replacing it): an inotify watch dies
// with the folder it was put on, and a watcher that is never re-armed goes deaf for good.
//
// The watch gives changes at once; a slow poll re-arms a dead watch and is the safety net for
// events a platform drops. The poll costs one stat of the folder per tick.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

export interface FolderWatchOptions {
  /** Only changes to these file names are reported (all, when absent). */
  names?: readonly string[];
  /** Events within this window become one `change`. */
  debounceMs?: number;
  /** How often the folder is checked (re-arming the watch) and `poll` is emitted. 0: never. */
  pollMs?: number;
}

export interface FolderWatchEvents {
  /** Something changed in the folder, or the folder came back (then possibly with new files). */
  change: [];
  /** The safety-net tick: a consumer compares what it knows with the disk. */
  poll: [];
}

export class FolderWatch extends EventEmitter<FolderWatchEvents> {
  private watcher: fs.FSWatcher | undefined;
  private watchedIno: number | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private readonly names: ReadonlySet<string> | undefined;
  private readonly debounceMs: number;
  private readonly pollMs: number;
  private readonly ownName: string;

  constructor(
    readonly dir: string,
    options: FolderWatchOptions = {},
  ) {
    super();
    this.names = options.names ? new Set(options.names) : undefined;
    this.debounceMs = options.debounceMs ?? 20;
    this.pollMs = options.pollMs ?? 2000;
    this.ownName = path.basename(dir);
  }

  start(): void {
    this.verify();
    if (this.pollMs > 0 && !this.pollTimer) {
      this.pollTimer = setInterval(() => {
        if (this.verify()) this.emit('poll');
      }, this.pollMs);
      this.pollTimer.unref();
    }
  }

  stop(): void {
    clearInterval(this.pollTimer);
    clearTimeout(this.debounce);
    this.pollTimer = undefined;
    this.disarm();
  }

  /** True while a watch is in place (tests and diagnostics). */
  get armed(): boolean {
    return this.watcher !== undefined;
  }

  /**
   * Makes sure the watch sits on the folder that is there now. Returns false when the folder was
   * just (re)armed or is missing: a `change` already covers the first case.
   */
  private verify(): boolean {
    let ino: number | undefined;
    try {
      const stat = fs.statSync(this.dir);
      ino = stat.isDirectory() ? stat.ino : undefined;
    } catch {
      ino = undefined;
    }
    if (ino === undefined) {
      this.disarm();
      return false;
    }
    if (this.watcher && ino === this.watchedIno) return true;
    this.disarm();
    this.arm(ino);
    // A folder that came back may already hold a new file: look.
    this.schedule();
    return false;
  }

  private arm(ino: number): void {
    try {
      const watcher = fs.watch(this.dir, { persistent: false }, (_event, filename) => {
        // The folder itself going away shows up (inotify) as an event named like the folder.
        if (filename === this.ownName) {
          this.verify();
          return;
        }
        if (filename !== null && this.names && !this.names.has(filename)) return;
        this.schedule();
      });
      watcher.on('error', () => {
        if (this.watcher === watcher) this.disarm();
        // The poll re-arms; a check now catches a change made while the watch was dying.
        this.schedule();
      });
      this.watcher = watcher;
      this.watchedIno = ino;
    } catch {
      // Out of watches, or the folder vanished between stat and watch: the poll keeps trying.
      this.watcher = undefined;
    }
  }

  private disarm(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.watchedIno = undefined;
  }

  private schedule(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.emit('change'), this.debounceMs);
    this.debounce.unref();
  }
}
