// A config snippet pasted from a README or another app, turned into the shape of a host's config
// file so the one reader (read-host-config.ts) parses it: no second parser. Accepted, as people copy
// them: `{ "mcpServers": {…} }` (Claude Desktop, Cursor), `{ "servers": {…} }` (VS Code mcp.json),
// `{ "mcp": { "servers": {…} } }` (VS Code settings), a bare map of entries, one entry's
// `"name": {…}` without its outer braces, or a lone `{ "command": … }` entry.
import { PASTED_SOURCE } from '../../shared/import-types.js';
import { CodedError } from '../../shared/result.js';
import type { HostKind } from './host-kind.js';
import { parseJsonc } from './jsonc.js';

export { PASTED_SOURCE };

export interface SnippetConfig {
  /** Whose file shape the snippet has: its entries are read with that host's rules. */
  host: HostKind;
  /** The snippet as a whole config file of that host. */
  text: string;
}

export function snippetConfig(pasted: string): SnippetConfig {
  const value = parseSnippet(pasted.trim());
  if (!isObject(value)) throw notAConfig();
  if (isObject(value.mcpServers)) return { host: 'claude-desktop', text: JSON.stringify({ mcpServers: value.mcpServers }) };
  if (isObject(value.servers)) return { host: 'vscode', text: JSON.stringify({ servers: value.servers, inputs: value.inputs ?? [] }) };
  if (isObject(value.mcp) && isObject(value.mcp.servers)) {
    return { host: 'vscode', text: JSON.stringify({ servers: value.mcp.servers, inputs: value.mcp.inputs ?? [] }) };
  }
  if (looksLikeEntry(value)) return { host: 'claude-desktop', text: JSON.stringify({ mcpServers: { [guessName(value)]: value } }) };
  const entries = Object.values(value);
  if (entries.length > 0 && entries.every(looksLikeEntry)) return { host: 'claude-desktop', text: JSON.stringify({ mcpServers: value }) };
  throw notAConfig();
}

/** A name for a lone entry, from what it runs: `npx -y @modelcontextprotocol/server-github` -> github. */
export function guessName(entry: Record<string, unknown>): string {
  if (typeof entry.url === 'string' && URL.canParse(entry.url)) {
    const host = new URL(entry.url).hostname.split('.').filter((part) => !['www', 'api', 'mcp', 'com', 'io', 'dev', 'app', 'net', 'org'].includes(part));
    if (host[0]) return host[0];
  }
  const args = Array.isArray(entry.args) ? entry.args.filter((arg): arg is string => typeof arg === 'string') : [];
  const packageArg = args.find((arg) => !arg.startsWith('-') && /mcp|server/i.test(arg));
  if (packageArg) {
    const bare = packageArg
      .replace(/^@[^/]+\//, '')
      .replace(/@[^@/]*$/, '')
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(m?js|py)$/, '');
    const short = bare.replace(/^(mcp-server-|server-|mcp-)/, '').replace(/(-mcp-server|-mcp|-server)$/, '');
    if (short) return short;
  }
  const command = typeof entry.command === 'string' ? entry.command.split(/[\\/]/).pop() : undefined;
  return command || 'server';
}

function parseSnippet(text: string): unknown {
  try {
    return parseJsonc(text, PASTED_SOURCE);
  } catch (error) {
    // `"github": { … }` copied without its outer braces (a README's fragment).
    if (!text.startsWith('{') && !text.startsWith('[')) {
      try {
        return parseJsonc(`{${text.replace(/,\s*$/, '')}}`, PASTED_SOURCE);
      } catch {
        // The first error names the first problem in what was pasted, not in our wrapper.
      }
    }
    throw error;
  }
}

function looksLikeEntry(value: unknown): value is Record<string, unknown> {
  return isObject(value) && (typeof value.command === 'string' || typeof value.url === 'string');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function notAConfig(): CodedError {
  return new CodedError('invalid-input', 'The pasted text holds no MCP server: expected "mcpServers", "servers", or an entry with "command" or "url".');
}
