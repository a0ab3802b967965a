// The hosts named in the import and "use with" dialogs. Product names: the same in every language.
import { HOST_KINDS, HOST_LABELS, type HostKind } from '../../../shared/import-types.js';

export { HOST_KINDS, HOST_LABELS, type HostKind };


/** Guesses the host from a config file's name, as the host side does; undefined when it says nothing. */
export function guessHost(file: string): HostKind | undefined {
  const parts = file.trim().replace(/\\/g, '/').split('/');
  const base = parts.at(-1) ?? '';
  const parent = parts.at(-2) ?? '';
  if (base === 'claude_desktop_config.json') return 'claude-desktop';
  if (base === '.mcp.json' || base === '.claude.json') return 'claude-code';
  if (base === 'mcp.json' && parent === '.cursor') return 'cursor';
  if (base === 'mcp.json' && (parent === '.vscode' || parent === 'User')) return 'vscode';
  return undefined;
}

/** Only Claude Desktop has no per-project config. */
export function hasWorkspaceConfig(host: HostKind): boolean {
  return host !== 'claude-desktop';
}

/** A full path (POSIX, drive letter, UNC) or a file: URI; the host checks it properly. */
export function looksAbsolute(text: string): boolean {
  return /^(\/|[a-zA-Z]:[\\/]|\\\\|file:)/.test(text.trim());
}
