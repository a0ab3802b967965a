// Every test gets its own folders under the OS temp dir, removed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

export function tempDir(prefix = 'mcp-roots-'): string {
  // realpath: macOS /tmp is a symlink, and roots are compared by canonical path.
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  // Retried: a proxy that is still exiting may write its last status file into a folder being
  // removed (ENOTEMPTY, seen once in CI after proxy-refusals had passed).
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
