// Every test gets its own folders under the OS temp dir, removed afterwards.
import { execFileSync } from 'node:child_process';
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
  // Callers wait first for what writes into them to end (closeProxiedClients, stopHosts); the retries
  // are for the kernel's own short delays (an unmount still being released), not for a race.
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

/**
 * A FUSE device node open to all, in a temp folder: what /dev/fuse is on a stock Debian (0666), for a
 * world run as an unprivileged user where /dev/fuse is root's only (this machine). Root only (mknod);
 * pass it as MCP_ROOTS_FUSE_DEVICE.
 */
export function openFuseDevice(): string {
  const dir = tempDir('fuse-device-');
  fs.chmodSync(dir, 0o755);
  const device = path.join(dir, 'fuse');
  const rdev = fs.statSync('/dev/fuse').rdev;
  execFileSync('mknod', [device, 'c', String(Math.floor(rdev / 256)), String(rdev % 256)], { stdio: 'ignore' });
  fs.chmodSync(device, 0o666);
  return device;
}
