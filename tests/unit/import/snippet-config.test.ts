// Snippets as people paste them become a host config the one reader parses.
import { describe, expect, it } from 'vitest';
import { guessName, snippetConfig } from '../../../electron/import/snippet-config.js';
import { readHostConfig } from '../../../electron/import/read-host-config.js';

const entriesOf = (text: string) => {
  const snippet = snippetConfig(text);
  return { host: snippet.host, entries: readHostConfig(snippet.host, snippet.text, 'pasted text').entries.map(({ name, entry }) => ({ name, entry })) };
};

describe('snippetConfig', () => {
  it('reads Claude Desktop and Cursor’s mcpServers, with other keys around it', () => {
    const text = JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'x' } } }, globalShortcut: 'Ctrl+Space' });
    expect(entriesOf(text)).toEqual({
      host: 'claude-desktop',
      entries: [{ name: 'github', entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'x' } } }],
    });
  });

  it('reads VS Code’s servers with its inputs, comments and trailing commas', () => {
    const text = `{
      // from the docs
      "inputs": [{ "type": "promptString", "id": "token", "password": true }],
      "servers": { "search": { "type": "http", "url": "https://example.test/mcp", "headers": { "Authorization": "Bearer \${input:token}" } }, },
    }`;
    const snippet = snippetConfig(text);
    expect(snippet.host).toBe('vscode');
    const config = readHostConfig('vscode', snippet.text, 'pasted text');
    expect(config.entries.map((entry) => entry.name)).toEqual(['search']);
    expect(config.inputs.map((input) => input.id)).toEqual(['token']);
  });

  it('reads VS Code settings’ "mcp": { "servers" }', () => {
    expect(entriesOf('{ "mcp": { "servers": { "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"] } } } }').entries.map((e) => e.name)).toEqual(['fs']);
  });

  it('reads a README fragment without its outer braces, and a bare map of entries', () => {
    expect(entriesOf('"postgres": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/db"] },').entries).toEqual([
      { name: 'postgres', entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/db'] } },
    ]);
    expect(entriesOf('{ "a": { "command": "uvx", "args": ["mcp-server-fetch"] }, "b": { "url": "http://127.0.0.1:3001/mcp" } }').entries.map((e) => e.name)).toEqual(['a', 'b']);
  });

  it('names a lone entry after what it runs', () => {
    expect(entriesOf('{ "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] }').entries[0]?.name).toBe('github');
    expect(guessName({ command: 'uvx', args: ['mcp-server-fetch'] })).toBe('fetch');
    expect(guessName({ command: 'npx', args: ['-y', '@upstash/context7-mcp@latest'] })).toBe('context7');
    expect(guessName({ url: 'https://api.githubcopilot.com/mcp/' })).toBe('githubcopilot');
    expect(guessName({ command: '/opt/tools/my-tool' })).toBe('my-tool');
  });

  it('refuses text that holds no server, with a clear reason', () => {
    expect(() => snippetConfig('{ "theme": "dark" }')).toThrow(/holds no MCP server/);
    expect(() => snippetConfig('npx -y @modelcontextprotocol/server-github')).toThrow(/pasted text is not valid JSON/);
    expect(() => snippetConfig('[1, 2]')).toThrow(/holds no MCP server/);
  });
});
