// What the proxy tells its host (as error text, and on stderr) when the sandbox stood in a
// server's way: what was blocked, and the CLI command that would allow it, the narrowest first.
// Through the proxy a host saw only "The server closed the connection", and a tool refused a path
// outside its grants said "not found": the sandbox hides the path, so the server cannot tell.
// The proxy only ADDS a note beside the server's own words; it never rewrites them.
import { shellWord } from '../../shared/shell-word.js';
import type { BlockedPath } from '../host/sandbox/blocked-path.js';

/** The command that would let `server` do what was refused (the CLI's real syntax, electron/cli). */
export function fixCommand(server: string, blocked: Pick<BlockedPath, 'kind' | 'folder'>): string | undefined {
  const name = shellWord(server);
  const folder = shellWord(blocked.folder);
  // Read-only first: the narrowest grant that lets it read what it asked for.
  if (blocked.kind === 'outside-grants') return `mcp-roots roots add ${folder} && mcp-roots grant ${name} ${folder} --read-only`;
  if (blocked.kind === 'read-only-grant') return `mcp-roots grant ${name} ${folder} --read-write`;
  return undefined;
}

/** The note added to a tool's error that names a path outside the server's grants. */
export function toolRefusalNote(server: string, blocked: BlockedPath): string | undefined {
  const command = fixCommand(server, blocked);
  if (!command) return undefined;
  const what =
    blocked.kind === 'outside-grants'
      ? `${blocked.path} is not granted to ${server}: its sandbox hides it, so the server reports it as not found`
      : `${blocked.path} is in a folder granted to ${server} read-only`;
  return `MCP Roots Manager: ${what}. To allow it: ${command}`;
}

/** The texts of a tools/call result that reports an error, else none. */
export function toolErrorTexts(result: unknown): string[] {
  const value = result as { isError?: unknown; content?: unknown } | undefined;
  if (value?.isError !== true || !Array.isArray(value.content)) return [];
  return value.content.flatMap((block: { type?: unknown; text?: unknown }) => (block?.type === 'text' && typeof block.text === 'string' ? [block.text] : []));
}

/** The result with the note as one more text block after the server's own content (which is kept as it is). */
export function withNote<T extends { content?: unknown }>(result: T, note: string): T {
  const content = Array.isArray(result.content) ? result.content : [];
  return { ...result, content: [...content, { type: 'text', text: note }] };
}
