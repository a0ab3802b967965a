// A folder as a person types it on a command line: `.`, `../docs`, `~/code/x`, an absolute path or a
// file:// URI. Paths resolve against the current folder and `~` against the home folder here, so the
// host still receives only absolute paths (and rejects anything else with its own message).
import path from 'node:path';

// Two or more letters, so that a Windows drive letter (`C:`) is not taken for a scheme.
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;

export interface PathContext {
  cwd: string;
  home: string;
}

export function resolveRootInput(input: string, context: PathContext): string {
  if (input.trim() === '' || SCHEME.test(input)) return input;
  if (input === '~') return context.home;
  if (input.startsWith('~/') || input.startsWith('~\\')) return path.join(context.home, input.slice(2));
  return path.resolve(context.cwd, input);
}

/** True when a reference is written as a path (not a bare name or id), so it is worth resolving. */
export function looksLikePath(ref: string): boolean {
  return ref === '.' || ref === '..' || ref.startsWith('~') || /[\\/]/.test(ref) || /^file:/i.test(ref);
}
