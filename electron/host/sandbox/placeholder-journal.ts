// A journal of the placeholders each process made (protected-paths.ts holdMissing), so that an app
// or a proxy killed outright does not leave empty `.vscode`, `.mcp.json`… in the person's folders
// for good: the next process that confines a server with the same data folder takes over what a
// dead one left, and removes each placeholder once no sandbox holds it, if it is still the very
// empty file or folder that was made (releasePlaceholders decides; the person's edits stay).
//
// <data>/sandbox/placeholders/<pid>-<start>.json: one file per living process, rewritten as its
// list changes. A process is dead when no process has that pid with that start time (a pid reused
// since is another process).
import fs from 'node:fs';
import path from 'node:path';
import { placeholderUnchanged, releasePlaceholders, type Placeholder } from './protected-paths.js';

interface JournalEntry {
  path: string;
  dev: number;
  ino: number;
  ctimeNs: string;
  parentDev?: number;
  parentIno?: number;
}

const journals = new Map<string, PlaceholderJournal>();

export class PlaceholderJournal {
  /** This process's journal for a data folder; the first call takes over what dead processes left. */
  static for(dataDir: string): PlaceholderJournal {
    let journal = journals.get(dataDir);
    if (!journal) {
      journal = new PlaceholderJournal(path.join(dataDir, 'sandbox', 'placeholders'));
      journals.set(dataDir, journal);
      journal.adoptOrphans();
    }
    return journal;
  }

  private readonly held = new Map<string, Placeholder>();
  /** What dead processes left, until removed or taken over by a start of this one (adopt). */
  private readonly orphans = new Map<string, Placeholder>();
  private readonly file: string;

  private constructor(private readonly dir: string) {
    this.file = path.join(dir, `${process.pid}-${startTimeOf(process.pid) ?? 'unknown'}.json`);
  }

  add(placeholders: readonly Placeholder[]): void {
    if (placeholders.length === 0) return;
    for (const placeholder of placeholders) this.held.set(placeholder.path, placeholder);
    this.write();
  }

  /**
   * A dead process's placeholder at `at`, still as it was made: a start that would hold the same
   * missing name takes it over (it is then that start's, removed when it ends) rather than bind it as
   * the person's own.
   */
  adopt(at: string): Placeholder | undefined {
    const orphan = this.orphans.get(at);
    if (!orphan || !placeholderUnchanged(orphan)) return undefined;
    this.orphans.delete(at);
    return orphan;
  }

  /** Releases them (releasePlaceholders), and forgets them once each is removed or found to be the person's. */
  async release(placeholders: readonly Placeholder[]): Promise<void> {
    await releasePlaceholders(placeholders);
    let changed = false;
    for (const placeholder of placeholders) changed = this.held.delete(placeholder.path) || changed;
    if (changed) this.write();
  }

  /** The journals of processes that are gone: their placeholders become this one's to release. */
  private adoptOrphans(): void {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const match = /^(\d+)-(\d+|unknown)\.json$/.exec(name);
      if (!match || path.join(this.dir, name) === this.file) continue;
      const [, pid, start] = match;
      if (start !== 'unknown' && startTimeOf(Number(pid)) === start) continue;
      const orphans = readJournal(path.join(this.dir, name));
      this.add(orphans);
      for (const orphan of orphans) this.orphans.set(orphan.path, orphan);
      fs.rmSync(path.join(this.dir, name), { force: true });
      void this.release(orphans).then(() => {
        for (const orphan of orphans) this.orphans.delete(orphan.path);
      });
    }
  }

  private write(): void {
    try {
      if (this.held.size === 0) {
        fs.rmSync(this.file, { force: true });
        return;
      }
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const entries: JournalEntry[] = [...this.held.values()].map((p) => ({ path: p.path, dev: p.dev, ino: p.ino, ctimeNs: p.ctimeNs.toString(), parentDev: p.parentDev, parentIno: p.parentIno }));
      const temporary = `${this.file}.${process.hrtime.bigint()}.tmp`;
      fs.writeFileSync(temporary, `${JSON.stringify(entries)}\n`, { mode: 0o600 });
      fs.renameSync(temporary, this.file);
    } catch {
      // A journal that cannot be written costs only the clean-up after a kill; the sandbox holds all the same.
    }
  }
}

/** A journal's placeholders; anything unreadable or of the wrong shape is skipped, never guessed at. */
function readJournal(file: string): Placeholder[] {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((entry: Partial<JournalEntry>) =>
      typeof entry?.path === 'string' && path.isAbsolute(entry.path) && Number.isInteger(entry.dev) && Number.isInteger(entry.ino) && typeof entry.ctimeNs === 'string' && /^\d+$/.test(entry.ctimeNs)
        ? [
            {
              path: entry.path,
              dev: entry.dev as number,
              ino: entry.ino as number,
              ctimeNs: BigInt(entry.ctimeNs),
              // Journals of earlier versions have no folder identity: their folder is checked by its path alone.
              ...(Number.isInteger(entry.parentDev) && Number.isInteger(entry.parentIno) ? { parentDev: entry.parentDev, parentIno: entry.parentIno } : {}),
            },
          ]
        : [],
    );
  } catch {
    return [];
  }
}

/** A process's start time in clock ticks since boot (/proc/<pid>/stat field 22), or undefined when it is gone. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
