// A short cross-process lock around each read-modify-write of the registry, so the app and the
// CLI editing at the same moment lose no update. Only writers take it: reading never waits for it
// (writes are atomic renames), so a proxy or `status` works while another process writes, and on a
// full disk where no lock file can be created.
// (proper-lockfile is async-first and its sync mode cannot retry; this is the small part we need.)
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CodedError } from '../../../shared/result.js';
import { isProcessAlive } from './process-alive.js';

export interface LockOptions {
  timeoutMs?: number;
  /** A lock older than this whose holder cannot be proven alive is taken over. */
  staleMs?: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function isStale(lockPath: string, staleMs: number): boolean {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
    // The holder died (kill -9 mid-edit): its lock protects nothing.
    if (Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid)) return true;
    return Date.now() - fs.statSync(lockPath).mtimeMs > staleMs;
  } catch {
    return false; // Gone or unreadable right now: just try again.
  }
}

/**
 * Creates the lock file with our pid already in it. Written in place ('wx' then the pid), a holder
 * killed between the two left an empty lock that nobody could prove stale, and every edit failed
 * for the next 10 s. So the pid goes into a private file first, which is then hard-linked to the
 * lock's name: the link appears whole or not at all (EEXIST while another holds it). Filesystems
 * without hard links get the in-place write.
 *
 * The private file is made once per lock and process and kept until the process ends: creating a
 * file cost 0.2-0.4 ms here (a link 11 µs), and each edit of the app took the lock before telling
 * its servers (BENCHMARKS.md section 2). A killed process's file is removed by the next store that
 * opens (removeStaleTemps: `<lock>.<pid>.<random>` of a dead pid).
 */
function createWithPid(lockPath: string): void {
  const own = pidFile(lockPath);
  try {
    // The lock's age must be this hold's, not the private file's: an old mtime reads as stale.
    const now = new Date();
    fs.utimesSync(own, now, now);
    fs.linkSync(own, lockPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && fs.existsSync(path.dirname(lockPath))) {
      // Our private file was removed under us (a sweep that misjudged our pid): make it again.
      pidFiles.delete(lockPath);
      fs.linkSync(pidFile(lockPath), lockPath);
      return;
    }
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx', mode: 0o600 });
  }
}

/** Each lock's private pid file, made at its first acquire. */
const pidFiles = new Map<string, string>();

function pidFile(lockPath: string): string {
  const known = pidFiles.get(lockPath);
  if (known) return known;
  const file = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
  if (pidFiles.size === 0) process.once('exit', removePidFiles);
  pidFiles.set(lockPath, file);
  return file;
}

/** At exit, and for tests: the private files go (a lock still held keeps its own name). */
export function removePidFiles(): void {
  for (const file of pidFiles.values()) fs.rmSync(file, { force: true });
  pidFiles.clear();
  process.off('exit', removePidFiles);
}

/** One attempt: the release function, or undefined while another process holds the lock. */
function tryAcquire(lockPath: string, staleMs: number): (() => void) | undefined {
  try {
    createWithPid(lockPath);
    return () => fs.rmSync(lockPath, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new CodedError('store-failed', `Cannot lock the registry: ${(error as Error).message}`);
    }
    if (isStale(lockPath, staleMs)) fs.rmSync(lockPath, { force: true });
    return undefined;
  }
}

/**
 * Whether a writer holds the lock now (a live holder, or one too recent to judge). For readers
 * that want to know if a writer is mid-flush; it never takes the lock nor waits for it.
 */
export function isLockHeld(lockPath: string, staleMs = 10_000): boolean {
  if (!fs.existsSync(lockPath)) return false;
  return !isStale(lockPath, staleMs);
}

const busy = () => new CodedError('store-failed', 'The registry is locked by another process; try again.');

/** Takes the lock (waiting briefly for another holder) and returns the function that releases it. */
export function acquireFileLock(lockPath: string, { timeoutMs = 3000, staleMs = 10_000 }: LockOptions = {}): () => void {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    const release = tryAcquire(lockPath, staleMs);
    if (release) return release;
    if (Date.now() > deadline) throw busy();
    sleepSync(wait);
  }
}

/**
 * The same, without blocking the event loop while another process holds the lock: the app keeps
 * answering its servers meanwhile.
 */
export async function acquireFileLockAsync(lockPath: string, { timeoutMs = 3000, staleMs = 10_000 }: LockOptions = {}): Promise<() => void> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    const release = tryAcquire(lockPath, staleMs);
    if (release) return release;
    if (Date.now() > deadline) throw busy();
    await delay(wait);
  }
}
