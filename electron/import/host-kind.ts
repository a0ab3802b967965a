// The hosts whose MCP configs we read (import) and write ("use with"). They differ in where the
// file lives, which key holds the servers, and how an entry is spelled.
import path from 'node:path';
import { HOST_KINDS, HOST_LABELS, type HostKind } from '../../shared/import-types.js';

// One list, in shared/ so the contract and the UI can name the hosts too.
export { HOST_KINDS, HOST_LABELS, type HostKind };


/** VS Code calls them `servers`; everyone else `mcpServers`. */
export function serversKey(host: HostKind): 'servers' | 'mcpServers' {
  return host === 'vscode' ? 'servers' : 'mcpServers';
}

export function isHostKind(value: unknown): value is HostKind {
  return typeof value === 'string' && (HOST_KINDS as readonly string[]).includes(value);
}

/** Guesses the host from a config file's path; undefined when the name says nothing. */
export function inferHostKind(file: string): HostKind | undefined {
  const normalized = file.replace(/\\/g, '/');
  const base = path.posix.basename(normalized);
  const parent = path.posix.basename(path.posix.dirname(normalized));
  if (base === 'claude_desktop_config.json') return 'claude-desktop';
  if (base === '.mcp.json' || base === '.claude.json') return 'claude-code';
  if (base === 'mcp.json' && parent === '.cursor') return 'cursor';
  if (base === 'mcp.json' && (parent === '.vscode' || parent === 'User')) return 'vscode';
  return undefined;
}
