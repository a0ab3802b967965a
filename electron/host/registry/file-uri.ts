// Every path or URI a user gives passes through here before it becomes a root.
// URIs are made only by pathToFileURL and read only by fileURLToPath: never string slicing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CodedError } from '../../../shared/result.js';

export const MAX_PATH_LENGTH = 4096;

// A scheme is two or more characters so that a Windows drive letter (`C:`) is not mistaken for one.
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]+):/;

/** Which path rules apply: the host's own, or (in tests) the other platform's. */
export type PathFlavor = 'posix' | 'windows';
const HOST_FLAVOR: PathFlavor = process.platform === 'win32' ? 'windows' : 'posix';
const pathsOf = (flavor: PathFlavor) => (flavor === 'windows' ? path.win32 : path.posix);

/** Turns user input (a path or a file:// URI) into an absolute, normalized path. No disk access. */
export function parseRootInput(input: string, flavor: PathFlavor = HOST_FLAVOR): string {
  const paths = pathsOf(flavor);
  if (input.includes('\0')) throw new CodedError('nul-byte', 'The path contains a NUL byte.');
  // Never trimmed: `proj ` and `proj` are different folders (the second may be a symlink to /etc).
  // A path is taken exactly as typed; only one made of nothing but blanks is refused as empty.
  if (input.trim().length === 0) throw new CodedError('invalid-input', 'The path is empty.');
  if (input.length > MAX_PATH_LENGTH) {
    throw new CodedError('too-long', `The path is longer than ${MAX_PATH_LENGTH} characters.`);
  }
  let candidate = input;
  const scheme = SCHEME.exec(input)?.[1];
  if (scheme !== undefined) {
    if (scheme.toLowerCase() !== 'file') {
      throw new CodedError('bad-scheme', `Only file:// URIs can be roots, not ${scheme}:.`);
    }
    // The URL parser would drop surrounding blanks without a word; in a URI a space is %20.
    if (/^\s|\s$/.test(input)) {
      throw new CodedError('bad-uri', `"${input}" begins or ends with a blank; a blank in a folder name is written %20 in a URI.`);
    }
    try {
      candidate = fileURLToPath(new URL(input), { windows: flavor === 'windows' });
    } catch (error) {
      throw new CodedError('bad-uri', `Not a usable file URI: ${(error as Error).message}`);
    }
    if (candidate.includes('\0')) throw new CodedError('nul-byte', 'The URI decodes to a NUL byte.');
  }
  // On Windows `\\foo` is relative to the current drive: only a drive or a UNC share is absolute.
  const absolute = flavor === 'windows' ? /^([a-zA-Z]:[\\/]|[\\/]{2}[^\\/])/.test(candidate) : paths.isAbsolute(candidate);
  if (!absolute) {
    throw new CodedError('not-absolute', `"${input}" is not an absolute path.`);
  }
  const normalized = paths.normalize(candidate);
  // Windows drops trailing blanks and dots from a name when it opens it: `C:\\proj ` would be `C:\\proj`.
  if (flavor === 'windows') {
    const changed = normalized.split(/[\\/]/).find((segment) => /[ .]$/.test(segment) && segment !== '.' && segment !== '..');
    if (changed !== undefined) {
      throw new CodedError('invalid-input', `"${changed}" ends with a blank or a dot, which Windows drops: it would open another folder.`);
    }
  }
  // A trailing separator is kept only where it is the root itself (`/`, `C:\\`, `\\\\server\\share\\`).
  const root = paths.parse(normalized).root;
  // A backslash is a separator only on Windows; on POSIX it is part of a name.
  const trailing = flavor === 'windows' ? /[\\/]+$/ : /\/+$/;
  const trimmedEnd = normalized.replace(trailing, '');
  return trimmedEnd.length >= root.length ? trimmedEnd : root;
}

export interface CanonicalRoot {
  /** What the user picked, absolute and normalized (kept for display). */
  path: string;
  /** realpath of it: what servers are told and what is monitored. */
  canonicalPath: string;
}

/** Resolves a root on disk: it must exist and be a directory. */
export async function canonicalizeRoot(input: string): Promise<CanonicalRoot> {
  const picked = parseRootInput(input);
  let canonicalPath: string;
  try {
    canonicalPath = await fs.realpath(picked);
  } catch (error) {
    throw await withBlankHint(fsError(error, picked), picked);
  }
  let stat;
  try {
    stat = await fs.stat(canonicalPath);
  } catch (error) {
    throw fsError(error, picked);
  }
  if (!stat.isDirectory()) throw new CodedError('not-directory', `"${picked}" is not a folder.`);
  return { path: picked, canonicalPath };
}

/** A missing name with blanks at its ends: say so, and name the sibling we did NOT take instead. */
async function withBlankHint(error: CodedError, picked: string): Promise<CodedError> {
  const name = path.basename(picked);
  if (error.code !== 'missing' || name === name.trim()) return error;
  const sibling = path.join(path.dirname(picked), name.trim());
  const exists = await fs.stat(sibling).then(
    () => true,
    () => false,
  );
  const also = exists ? ` "${sibling}" exists but was not added: a path is taken exactly as typed.` : '';
  return new CodedError('missing', `${error.message} Its name "${name}" begins or ends with a blank.${also}`);
}

export function fsError(error: unknown, where: string): CodedError {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return new CodedError('missing', `"${where}" does not exist.`);
    case 'ENOTDIR':
      return new CodedError('not-directory', `"${where}" is not a folder.`);
    case 'EACCES':
    case 'EPERM':
      return new CodedError('permission-denied', `No permission to read "${where}".`);
    case 'ELOOP':
      return new CodedError('symlink-loop', `"${where}" is a symlink loop.`);
    case 'ENAMETOOLONG':
      return new CodedError('too-long', `"${where}" is too long for this system.`);
    default:
      return new CodedError('internal', `Cannot read "${where}": ${(error as Error)?.message ?? code}`);
  }
}

export function pathToRootUri(absolutePath: string, flavor: PathFlavor = HOST_FLAVOR): string {
  return pathToFileURL(absolutePath, { windows: flavor === 'windows' }).href;
}

export function rootUriToPath(uri: string, flavor: PathFlavor = HOST_FLAVOR): string {
  return fileURLToPath(uri, { windows: flavor === 'windows' });
}

/** The default display name: the folder's own name, or the path itself for a filesystem root. */
export function defaultRootName(absolutePath: string): string {
  return path.basename(absolutePath) || absolutePath;
}
