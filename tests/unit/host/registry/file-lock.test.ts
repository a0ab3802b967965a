// The registry's cross-process lock: whoever holds it is named in it from the first instant, so a
// holder killed at any moment leaves a lock the next writer can prove stale at once.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireFileLock } from '../../../../electron/host/registry/file-lock.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => removeTempDirs());

describe('file lock', () => {
  it('holds our pid, keeps others out, and leaves nothing behind when released', () => {
    const dir = tempDir('lock-');
    const lockPath = path.join(dir, 'config.json.lock');
    const release = acquireFileLock(lockPath);
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
    expect(() => acquireFileLock(lockPath, { timeoutMs: 50 })).toThrow(/locked by another process/);
    release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('takes over at once from a holder that was killed with -9', async () => {
    const dir = tempDir('lock-');
    const lockPath = path.join(dir, 'config.json.lock');
    // A separate process takes the lock and is killed while holding it.
    const holder = spawn(process.execPath, [
      '-e',
      `const fs = require('fs'); const t = ${JSON.stringify(lockPath)} + '.x'; fs.writeFileSync(t, String(process.pid)); fs.linkSync(t, ${JSON.stringify(lockPath)}); fs.rmSync(t); console.log('held'); setInterval(() => {}, 1000);`,
    ]);
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    // Its lock is younger than staleMs and the wait gives up before staleMs: only knowing that the
    // holder is dead can get it.
    const release = acquireFileLock(lockPath, { timeoutMs: 20_000, staleMs: 60_000 });
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
    release();
  });
});
