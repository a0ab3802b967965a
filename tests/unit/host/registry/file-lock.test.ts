// The registry's cross-process lock: whoever holds it is named in it from the first instant, so a
// holder killed at any moment leaves a lock the next writer can prove stale at once.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireFileLock, removePidFiles } from '../../../../electron/host/registry/file-lock.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => {
  removePidFiles();
  removeTempDirs();
});

describe('file lock', () => {
  it('holds our pid, keeps others out, and is gone when released', () => {
    const dir = tempDir('lock-');
    const lockPath = path.join(dir, 'config.json.lock');
    const release = acquireFileLock(lockPath);
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
    expect(() => acquireFileLock(lockPath, { timeoutMs: 50 })).toThrow(/locked by another process/);
    release();
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it('makes its private pid file once, not at each acquire, and removes it when the process ends', async () => {
    const dir = tempDir('lock-');
    const lockPath = path.join(dir, 'config.json.lock');
    acquireFileLock(lockPath)();
    const kept = fs.readdirSync(dir);
    expect(kept).toEqual([expect.stringMatching(new RegExp(`^config\\.json\\.lock\\.${process.pid}\\.[0-9a-z]+$`))]);
    acquireFileLock(lockPath)();
    expect(fs.readdirSync(dir)).toEqual(kept);
    // Another process that takes and releases the lock, then exits, leaves nothing.
    fs.rmSync(path.join(dir, kept[0] as string));
    const lockModule = path.resolve(import.meta.dirname, '../../../../electron/host/registry/file-lock.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(lockModule)}).then((m) => m.acquireFileLock(${JSON.stringify(lockPath)})())`]);
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('dates the lock from this hold, not from when its pid file was made (an old lock reads as stale)', () => {
    const dir = tempDir('lock-');
    const lockPath = path.join(dir, 'config.json.lock');
    acquireFileLock(lockPath)();
    const own = path.join(dir, fs.readdirSync(dir)[0] as string);
    const longAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(own, longAgo, longAgo);
    const release = acquireFileLock(lockPath);
    expect(Date.now() - fs.statSync(lockPath).mtimeMs).toBeLessThan(60_000);
    // Another writer with a short staleMs still finds it held.
    expect(() => acquireFileLock(lockPath, { timeoutMs: 50, staleMs: 60_000 })).toThrow(/locked by another process/);
    release();
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
