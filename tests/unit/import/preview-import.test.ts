// Import previews from real-shaped config files of every host: what would be imported, with
// variables shown verbatim, duplicates named, and broken files or entries reported clearly.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyRegistry } from '../../../shared/registry-schema.js';
import type { Registry } from '../../../shared/domain.js';
import type { ConfigSource } from '../../../electron/import/config-locations.js';
import { importable, previewImport } from '../../../electron/import/preview-import.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/import');
const at = (host: ConfigSource['host'], ...parts: string[]): ConfigSource => ({ host, path: path.join(fixtures, ...parts), scope: 'user' });

const CLAUDE_DESKTOP = at('claude-desktop', 'claude-desktop', 'claude_desktop_config.json');
const CLAUDE_DESKTOP_MSIX = at('claude-desktop', 'claude-desktop', 'claude_desktop_config.windows-msix.json');
const VSCODE_WORKSPACE = at('vscode', 'vscode', '.vscode', 'mcp.json');
const VSCODE_USER = at('vscode', 'vscode', 'User', 'mcp.json');
const CURSOR = at('cursor', 'cursor', '.cursor', 'mcp.json');
const CLAUDE_CODE_PROJECT = at('claude-code', 'claude-code', '.mcp.json');
const CLAUDE_JSON = at('claude-code', 'claude-code', '.claude.json');

function byName<T extends { originalName: string }>(candidates: T[], name: string): T {
  const found = candidates.filter((candidate) => candidate.originalName === name);
  expect(found, name).toHaveLength(1);
  return found[0] as T;
}

describe('previewImport', () => {
  it('reads Claude Desktop, keeping env values (secrets) and every other key out of the way', async () => {
    const { candidates, errors, skipped } = await previewImport([CLAUDE_DESKTOP], emptyRegistry());
    expect(errors).toEqual([]);
    expect(skipped).toEqual([]);
    expect(candidates.map((c) => c.originalName)).toEqual(['filesystem', 'github', 'sqlite']);
    expect(byName(candidates, 'filesystem')).toMatchObject({
      host: 'claude-desktop',
      name: 'filesystem',
      transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/ada/Desktop', '/Users/ada/Downloads'], env: {} },
      variables: [],
    });
    expect(byName(candidates, 'github').transport).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'not-a-real-token-example' } });
  });

  it('reads a Windows (MSIX) Claude Desktop file with a BOM, CRLF and backslash paths', async () => {
    const { candidates, errors } = await previewImport([CLAUDE_DESKTOP_MSIX], emptyRegistry());
    expect(errors).toEqual([]);
    expect(candidates[0]?.transport).toEqual({
      type: 'stdio',
      command: 'C:\\Program Files\\nodejs\\node.exe',
      args: ['C:\\Users\\ada\\AppData\\Roaming\\npm\\node_modules\\@modelcontextprotocol\\server-everything\\dist\\index.js', 'stdio'],
      env: {},
    });
  });

  it('reads VS Code JSONC with inputs: ${input:…} and ${workspaceFolder} are shown, never expanded', async () => {
    const { candidates, errors } = await previewImport([VSCODE_WORKSPACE], emptyRegistry());
    expect(errors).toEqual([]);
    expect(candidates.map((c) => c.originalName)).toEqual(['filesystem', 'github', 'sqlite', 'legacy-sse']);
    expect(byName(candidates, 'filesystem')).toMatchObject({
      transport: { type: 'stdio', args: ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}'] },
      variables: ['${workspaceFolder}'],
    });
    const github = byName(candidates, 'github');
    expect(github.transport).toEqual({ type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${input:github-token}' } });
    expect(github.variables).toEqual(['${input:github-token}']);
    expect(github.inputs).toEqual([{ type: 'promptString', id: 'github-token', description: 'GitHub Personal Access Token', password: true }]);
    const sqlite = byName(candidates, 'sqlite');
    expect(sqlite.transport).toMatchObject({ env: { LOG_LEVEL: 'debug', PORT: '8080' } });
    expect(sqlite.variables).toEqual(['${input:db-path}']);
    expect(sqlite.notes.join(' ')).toMatch(/UNSET_ME.*null/);
    expect(sqlite.notes.join(' ')).toMatch(/envFile/);
    expect(byName(candidates, 'legacy-sse').transport).toEqual({ type: 'sse', url: 'http://localhost:3001/sse', headers: {} });

    const user = await previewImport([VSCODE_USER], emptyRegistry());
    expect(byName(user.candidates, 'memory').variables).toEqual(['${userHome}']);
  });

  it('reads Cursor: stdio with ${env:…}, remote by url (sse by `transport`, else Streamable HTTP), disabled entries', async () => {
    const { candidates } = await previewImport([CURSOR], emptyRegistry());
    expect(byName(candidates, 'brave-search').variables).toEqual(['${env:BRAVE_API_KEY}']);
    expect(byName(candidates, 'linear').transport).toEqual({ type: 'sse', url: 'https://mcp.linear.app/sse', headers: { Authorization: 'Bearer lin_api_example' } });
    expect(byName(candidates, 'context7').transport).toEqual({ type: 'http', url: 'https://mcp.context7.com/mcp', headers: {} });
    expect(byName(candidates, 'off')).toMatchObject({ disabledInHost: true, variables: ['${workspaceFolder}'] });
  });

  it('reads Claude Code: .mcp.json with ${VAR:-default}, and ~/.claude.json user and per-project servers', async () => {
    const project = await previewImport([CLAUDE_CODE_PROJECT], emptyRegistry());
    expect(byName(project.candidates, 'sentry').variables).toEqual(['${SENTRY_TOKEN}']);
    expect(byName(project.candidates, 'api')).toMatchObject({
      transport: { type: 'sse', url: '${API_BASE_URL:-https://api.example.com}/sse' },
      variables: ['${API_BASE_URL:-https://api.example.com}'],
    });

    const user = await previewImport([CLAUDE_JSON], emptyRegistry());
    expect(user.candidates.map((c) => [c.originalName, c.project])).toEqual([
      ['filesystem', undefined],
      ['postgres', '/Users/ada/code/shop'],
    ]);
  });

  it('names duplicates: of a registry server (same command and args, or same URL) and across files', async () => {
    const registry: Registry = {
      ...emptyRegistry(),
      servers: [
        {
          id: 'existing-fs',
          name: 'filesystem',
          transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/ada/Desktop', '/Users/ada/Downloads'], env: {} },
          enabled: true,
          sharing: true,
          sandbox: true,
          network: true,
          askForFolders: true,
          addedAt: '2026-01-01T00:00:00.000Z',
        },
        {
          id: 'existing-context7',
          name: 'context7',
          transport: { type: 'http', url: 'https://mcp.context7.com/mcp', headers: {} },
          enabled: true,
          sharing: true,
          sandbox: true,
          network: true,
          askForFolders: true,
          addedAt: '2026-01-01T00:00:00.000Z',
        },
        {
          id: 'other-sqlite',
          name: 'sqlite',
          transport: { type: 'stdio', command: 'python', args: ['other.py'], env: {} },
          enabled: true,
          sharing: true,
          sandbox: true,
          network: true,
          askForFolders: true,
          addedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    };
    const preview = await previewImport([CLAUDE_DESKTOP, CURSOR, VSCODE_WORKSPACE], registry);
    const fromCursor = preview.candidates.filter((c) => c.host === 'cursor');
    expect(byName(fromCursor, 'filesystem').duplicateOf).toBe('existing-fs');
    expect(byName(fromCursor, 'context7').duplicateOf).toBe('existing-context7');
    // Same name as a registry server but a different program: imported under another name.
    const sqlite = byName(preview.candidates.filter((c) => c.host === 'claude-desktop'), 'sqlite');
    expect(sqlite).toMatchObject({ duplicateOf: undefined, name: 'sqlite (claude-desktop)' });
    // github in Claude Desktop (docker) and VS Code (remote) are different servers: both new.
    const github = preview.candidates.filter((c) => c.originalName === 'github');
    expect(github.map((c) => c.name)).toEqual(['github', 'github (vscode)']);
    expect(importable(preview).some((c) => c.duplicateOf !== undefined || c.sameAs !== undefined)).toBe(false);

    const twice = await previewImport([CLAUDE_DESKTOP, CLAUDE_JSON], emptyRegistry());
    const repeated = twice.candidates.filter((c) => c.originalName === 'filesystem');
    expect(repeated[1]?.sameAs).toBe(repeated[0]?.key);
  });

  it('reports a broken file with line and column, a wrong shape, and bad entries one by one', async () => {
    const broken = at('claude-desktop', 'broken', 'claude_desktop_config.json');
    const shape = at('claude-desktop', 'broken', 'wrong-shape.json');
    const entries = at('claude-desktop', 'broken', 'bad-entries.json');
    const missing = at('cursor', 'does-not-exist', 'mcp.json');
    const preview = await previewImport([broken, shape, entries, missing, CLAUDE_DESKTOP], emptyRegistry());
    const errorOf = (source: ConfigSource) => preview.errors.find((e) => e.source === source.path)?.message;
    expect(errorOf(broken)).toMatch(/claude_desktop_config\.json is not valid JSON at line 5, column \d+/);
    expect(errorOf(shape)).toMatch(/does not look like an MCP config: mcpServers/);
    expect(errorOf(missing)).toMatch(/ENOENT|no such file/);
    expect(preview.skipped.map((s) => [s.name, s.reason.split(':')[0]])).toEqual([
      ['bad-args', 'args'],
      ['no-command', 'has neither a command nor a url'],
    ]);
    // The good files and entries still come through.
    expect(preview.candidates.map((c) => c.originalName)).toEqual(['good', 'filesystem', 'github', 'sqlite']);
  });

  it('recognizes entries that already run through mcp-roots proxy', async () => {
    const file = JSON.stringify({
      mcpServers: {
        filesystem: { command: '/usr/local/bin/node', args: ['/opt/mcp-roots/bin/mcp-roots.js', 'proxy', '--config-dir', '/x', 'filesystem'] },
        other: { command: 'mcp-roots', args: ['proxy', 'other'] },
      },
    });
    const preview = await previewImport([{ host: 'cursor', path: '/virtual/mcp.json', scope: 'user' }], emptyRegistry(), async () => file);
    expect(preview.candidates.map((c) => c.proxiedServer)).toEqual(['filesystem', 'other']);
    expect(importable(preview)).toEqual([]);
  });
});
