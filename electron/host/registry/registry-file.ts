// config.json as bytes on disk: read it without trusting what is there, write it so that a reader
// sees the old file or the new one and never a torn one, and clean up after writers that died.
//
// What is at the path may be anything a person or a fault put there: a symlink to /dev/zero, a FIFO,
// a directory, a 10 GB file. It is opened non-blocking (a FIFO cannot hang us), checked with fstat to
// be a regular file of bounded size, and only then read.
import fs from 'node:fs';
import path from 'node:path';
import { CodedError } from '../../../shared/result.js';

/** The registry's file name in the config dir. */
export const CONFIG_FILE = 'config.json';

/** Far above a registry of 10,000 roots and 100 servers (~3 MB), far below what hurts to read. */
export const MAX_REGISTRY_BYTES = 64 * 1024 * 1024;

/** What identifies one version of the file: a rename-replace changes the inode, an edit in place the rest. */
export interface FileSignature {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export function sameSignature(a: FileSignature | undefined, b: FileSignature | undefined): boolean {
  return a?.ino === b?.ino && a?.size === b?.size && a?.mtimeMs === b?.mtimeMs && a?.ctimeMs === b?.ctimeMs;
}

export function signatureOf(file: string): FileSignature | undefined {
  try {
    return toSignature(fs.statSync(file));
  } catch {
    return undefined;
  }
}

function toSignature(stat: fs.Stats): FileSignature {
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

/**
 * Why a read gave no content. `unusable`: what is there can never be read as a registry (not a
 * regular file, too large); `io`: reading failed now and may work later (EIO, EMFILE, EACCES).
 */
export class RegistryReadError extends CodedError {
  constructor(
    readonly kind: 'unusable' | 'io',
    message: string,
  ) {
    super('store-failed', message);
  }
}

export interface FileRead {
  text: string;
  signature: FileSignature;
}

/** Reads the file, or undefined when there is none. Throws RegistryReadError for anything else. */
export function readRegistryText(file: string): FileRead | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR' || code === 'ELOOP' || code === 'ENXIO') throw new RegistryReadError('unusable', `${file} is not a regular file (${code}).`);
    throw new RegistryReadError('io', `Cannot open ${file}: ${(error as Error).message}`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new RegistryReadError('unusable', `${file} is not a regular file.`);
    if (stat.size > MAX_REGISTRY_BYTES) {
      throw new RegistryReadError('unusable', `${file} is ${stat.size} bytes, more than a registry can be (${MAX_REGISTRY_BYTES}).`);
    }
    // One byte more than fstat said: a file growing under us is read again next time, never cut short.
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) throw new RegistryReadError('io', `${file} changed while it was read.`);
    }
    return { text: buffer.toString('utf8', 0, length), signature: toSignature(stat) };
  } catch (error) {
    if (error instanceof RegistryReadError) throw error;
    throw new RegistryReadError('io', `Cannot read ${file}: ${(error as Error).message}`);
  } finally {
    fs.closeSync(fd);
  }
}

const TEMP_SUFFIX = '.tmp';

/** `config.json.<pid>.<time>.tmp`: the writer's pid in the name lets a later process clean up after it. */
function tempName(file: string): string {
  return `${file}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}${TEMP_SUFFIX}`;
}

/**
 * Temp file in the same folder, fsync, rename. The temp file is removed on any failure (a full
 * disk must not leave a second copy of the registry behind). Returns the new file's signature.
 */
export async function writeFileAtomic(file: string, pieces: readonly Buffer[]): Promise<FileSignature> {
  const temp = tempName(file);
  try {
    const handle = await fs.promises.open(temp, 'wx', 0o600);
    try {
      // One writev for every piece; a short write (rare, but allowed) goes on from where it stopped.
      const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
      const { bytesWritten } = await handle.writev(pieces as Buffer[]);
      if (bytesWritten < total) await handle.write(Buffer.concat(pieces).subarray(bytesWritten), 0, total - bytesWritten, bytesWritten);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  return signatureOf(file) ?? { ino: 0, size: 0, mtimeMs: 0, ctimeMs: 0 };
}

/** The synchronous twin, for start-up repairs (a first file, a migration) under the lock. */
export function writeFileAtomicSync(file: string, data: string | Buffer): FileSignature {
  const temp = tempName(file);
  try {
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  return signatureOf(file) ?? { ino: 0, size: 0, mtimeMs: 0, ctimeMs: 0 };
}

/**
 * Copies `from` to `to` through a temp file: a failed copy (a full disk) leaves the previous `to`
 * as it was instead of a truncated or missing one. Returns false when the copy failed.
 */
export function copyFileAtomic(from: string, to: string): boolean {
  const temp = tempName(to);
  try {
    fs.copyFileSync(from, temp);
    fs.chmodSync(temp, 0o600);
    fs.renameSync(temp, to);
    return true;
  } catch {
    fs.rmSync(temp, { force: true });
    return false;
  }
}

/**
 * Removes temp files of writers that died mid-write (kill -9, a crash, a full disk): they may hold a
 * whole registry, secrets included. A temp file of a live process is left alone: it is mid-write.
 */
export function removeStaleTemps(dir: string, baseName: string, isAlive: (pid: number) => boolean): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const ours = new RegExp(`^${escapeRegExp(baseName)}\\.(\\d+)\\.[0-9a-z]+(?:\\.tmp)?$`);
  // Earlier versions wrote through the atomically package: `<file>.tmp-<time><random>`, no pid.
  const theirs = new RegExp(`^${escapeRegExp(baseName)}\\.tmp-\\d+`);
  for (const name of names) {
    const match = ours.exec(name);
    if (match) {
      const pid = Number(match[1]);
      if (pid === process.pid || isAlive(pid)) continue;
    } else if (!theirs.test(name) || !olderThan(path.join(dir, name), 60_000)) {
      continue;
    }
    try {
      fs.rmSync(path.join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // Not ours to remove (another user's folder?): leave it.
    }
  }
  return removed;
}

function olderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A dated name beside the file, for what we move out of the way instead of overwriting. */
export function datedName(dir: string, prefix: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let candidate = path.join(dir, `${prefix}-${stamp}.json`);
  for (let n = 2; fs.existsSync(candidate); n++) candidate = path.join(dir, `${prefix}-${stamp}-${n}.json`);
  return candidate;
}
