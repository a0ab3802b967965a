// Folders named by a server's arguments or environment (`server-filesystem /a /b`, `--root=/a`,
// `ALLOWED_DIRS=/a:/b`, `file:///a`): they bypass roots, so the import preview, the server detail
// and `status` flag them, and under enforcement they stay closed until granted. Pure: the caller
// says which paths are folders on the host.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ArgumentFolder {
  /** The folder, absolute and normalized. */
  path: string;
  /** Where it was named: an argument (by index) or an environment variable (by name). */
  source: { kind: 'arg'; index: number } | { kind: 'env'; name: string };
}

export interface FolderInput {
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd?: string | undefined;
}

// Environment variables that name programs and system search paths, not data folders.
const IGNORED_ENV = new Set(['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'SHELL', 'PWD', 'NODE_PATH', 'PYTHONPATH', 'LD_LIBRARY_PATH', 'MANPATH']);

function candidates(value: string, cwd: string | undefined, separators: RegExp): string[] {
  const found: string[] = [];
  // `--flag=/path` and `KEY=/path` name the part after the first '='.
  const afterEquals = value.startsWith('-') && value.includes('=') ? value.slice(value.indexOf('=') + 1) : value;
  for (const part of afterEquals.split(separators)) {
    const piece = part.trim();
    if (!piece) continue;
    if (piece.startsWith('file://')) {
      try {
        found.push(fileURLToPath(piece));
      } catch {
        // Not a local file URI: nothing to flag.
      }
    } else if (path.posix.isAbsolute(piece)) {
      found.push(path.posix.normalize(piece));
    } else if (cwd && (piece === '.' || piece === '..' || piece.startsWith('./') || piece.startsWith('../'))) {
      found.push(path.posix.resolve(cwd, piece));
    }
  }
  return found;
}

export function foldersInArguments(input: FolderInput, isDirectory: (p: string) => boolean): ArgumentFolder[] {
  const result: ArgumentFolder[] = [];
  const seen = new Set<string>();
  const keep = (p: string, source: ArgumentFolder['source']) => {
    const normalized = p.length > 1 ? p.replace(/\/+$/, '') : p;
    if (seen.has(normalized) || !isDirectory(normalized)) return;
    seen.add(normalized);
    result.push({ path: normalized, source });
  };
  input.args.forEach((arg, index) => {
    // An argument is one path (which may hold a comma); only `--flag=a,b` style lists are split.
    for (const p of candidates(arg, input.cwd, arg.startsWith('-') ? /,/ : /$^/)) keep(p, { kind: 'arg', index });
  });
  for (const [name, value] of Object.entries(input.env)) {
    if (IGNORED_ENV.has(name)) continue;
    for (const p of candidates(value, input.cwd, /[:,;]/)) keep(p, { kind: 'env', name });
  }
  return result;
}
