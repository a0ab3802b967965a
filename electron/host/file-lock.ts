// A short cross-process lock around each read-modify-write of the registry, so the app and the
// CLI editing at the same moment lose no update. Synchronous on purpose: the critical section is
// one small read and one atomic write, and the edit pipeline that calls it is synchronous.
// (proper-lockfile is async-first and its sync mode cannot retry; this is the small part we need.)
import fs from 'node:fs';
import { CodedError } from '../../shared/result.js';

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function isStale(lockPath: string, staleMs: number): boolean {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 0);
      } catch (error) {
        // The holder died (kill -9 mid-edit): its lock protects nothing.
        if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
      }
    }
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
 */
function createWithPid(lockPath: string): void {
  const temp = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(temp, String(process.pid), { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(temp, lockPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx', mode: 0o600 });
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** Takes the lock (waiting briefly for another holder) and returns the function that releases it. */
export function acquireFileLock(lockPath: string, { timeoutMs = 3000, staleMs = 10_000 } = {}): () => void {
  const deadline = Date.now() + timeoutMs;
  let wait = 1;
  for (;;) {
    try {
      createWithPid(lockPath);
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new CodedError('store-failed', `Cannot lock the registry: ${(error as Error).message}`);
      }
      if (isStale(lockPath, staleMs)) {
        fs.rmSync(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new CodedError('store-failed', 'The registry is locked by another process; try again.');
      }
      sleepSync(wait);
      wait = Math.min(wait * 2, 20);
    }
  }
}

export function withFileLock<T>(lockPath: string, critical: () => T, options?: { timeoutMs?: number; staleMs?: number }): T {
  const release = acquireFileLock(lockPath, options);
  try {
    return critical();
  } finally {
    release();
  }
}
