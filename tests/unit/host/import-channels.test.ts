// The contract's import and "use with" channels, through `dispatch` as every UI calls them: secrets
// never leave masked, an import grants nothing, a stale preview changes nothing, and use-with
// writes a valid config plus a backup (always into temp copies, never the real home).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dispatch } from '../../support/host-harness.js';
import type { RootsHost } from '../../../electron/host/roots-host.js';
import { readHostConfig } from '../../../electron/import/read-host-config.js';
import type { Channel, ChannelInput, ChannelResult } from '../../../shared/contract.js';
import type { ImportCandidateView, ImportPreviewView } from '../../../shared/import-types.js';
import type { HostError } from '../../../shared/result.js';
import { SECRET_MASK } from '../../../shared/secrets.js';
import { startHost, stopHosts } from '../../support/host-harness.js';
import { removeTempDirs, tempDir } from '../../support/index.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/import');
/** Clear secrets written in the fixtures (Claude Desktop's env, Cursor's header). */
const FIXTURE_SECRETS = ['not-a-real-token-example', 'lin_api_example'];

afterEach(async () => {
  vi.unstubAllEnvs();
  await stopHosts();
  removeTempDirs();
});

function copyFixture(from: string[], to: string[], dir = tempDir('host-config-')): string {
  const target = path.join(dir, ...to);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(path.join(fixtures, ...from), target);
  return target;
}

async function call<C extends Channel>(host: RootsHost, channel: C, input: ChannelInput<C>): Promise<ChannelResult<C>> {
  const result = await dispatch(host, channel, input);
  if (!result.ok) throw new Error(`${channel} failed: ${result.error.code} ${result.error.message}`);
  return result.value as ChannelResult<C>;
}

async function refused(host: RootsHost, channel: Channel, payload: unknown): Promise<HostError> {
  const result = await dispatch(host, channel, payload);
  if (result.ok) throw new Error(`${channel} accepted ${JSON.stringify(payload)}`);
  return result.error;
}

function candidate(preview: ImportPreviewView, host: ImportCandidateView['host'], name: string): ImportCandidateView {
  const found = preview.candidates.filter((c) => c.host === host && c.originalName === name);
  expect(found, `${host} ${name}`).toHaveLength(1);
  return found[0] as ImportCandidateView;
}

/** Claude Desktop, Cursor and a VS Code workspace config, copied into one temp folder. */
function threeHosts() {
  const dir = tempDir('hosts-');
  return {
    claude: copyFixture(['claude-desktop', 'claude_desktop_config.json'], ['Claude', 'claude_desktop_config.json'], dir),
    cursor: copyFixture(['cursor', '.cursor', 'mcp.json'], ['.cursor', 'mcp.json'], dir),
    vscode: copyFixture(['vscode', '.vscode', 'mcp.json'], ['.vscode', 'mcp.json'], dir),
  };
}

describe('import.preview', () => {
  it('shows candidates with secrets masked, variables as written, and which ones are importable', async () => {
    const host = await startHost({ runServers: false });
    const files = threeHosts();
    const preview = await call(host, 'import.preview', {
      files: [
        { path: files.claude, host: 'claude-desktop' },
        { path: files.cursor, host: 'cursor' },
        { path: files.vscode, host: 'vscode' },
      ],
    });

    const text = JSON.stringify(preview);
    for (const secret of FIXTURE_SECRETS) expect(text).not.toContain(secret);
    expect(preview.previewId).toMatch(/^[0-9a-f-]{36}$/);
    expect(preview.sources).toEqual([
      { host: 'claude-desktop', path: files.claude, scope: 'picked' },
      { host: 'cursor', path: files.cursor, scope: 'picked' },
      { host: 'vscode', path: files.vscode, scope: 'picked' },
    ]);

    const github = candidate(preview, 'claude-desktop', 'github');
    expect(github).toMatchObject({ key: `${files.claude}#github`, name: 'github', source: files.claude, importable: true, disabledInHost: false });
    expect(github.transport).toMatchObject({ type: 'stdio', command: 'docker', env: { GITHUB_PERSONAL_ACCESS_TOKEN: SECRET_MASK } });
    expect(candidate(preview, 'cursor', 'linear').transport).toEqual({
      type: 'sse',
      url: 'https://mcp.linear.app/sse',
      headers: { Authorization: SECRET_MASK },
    });
    // The variable is named, never expanded; its value (the env entry) is masked like any other.
    const brave = candidate(preview, 'cursor', 'brave-search');
    expect(brave.variables).toEqual(['${env:BRAVE_API_KEY}']);
    expect(brave.transport).toMatchObject({ env: { BRAVE_API_KEY: SECRET_MASK } });
    expect(candidate(preview, 'cursor', 'off')).toMatchObject({ disabledInHost: true, importable: true, variables: ['${workspaceFolder}'] });

    // A VS Code password input is described, without any default.
    const vscodeGithub = candidate(preview, 'vscode', 'github');
    expect(vscodeGithub).toMatchObject({ name: 'github (vscode)', variables: ['${input:github-token}'] });
    expect(vscodeGithub.inputs).toEqual([{ id: 'github-token', description: 'GitHub Personal Access Token', password: true }]);

    // The same server in two files: the later one points at the earlier and is not importable.
    expect(candidate(preview, 'cursor', 'filesystem')).toMatchObject({ sameAs: `${files.claude}#filesystem`, importable: false });
    expect(preview.skipped).toEqual([]);
  });

  it('reports unreadable and broken files per source, without quoting their contents', async () => {
    const host = await startHost({ runServers: false });
    const dir = tempDir('broken-');
    const broken = copyFixture(['broken', 'claude_desktop_config.json'], ['claude_desktop_config.json'], dir);
    const garbage = path.join(dir, 'garbage.json');
    fs.writeFileSync(garbage, 'sk-123456');
    const missing = path.join(dir, 'nowhere', 'mcp.json');
    const preview = await call(host, 'import.preview', {
      files: [
        { path: broken, host: 'claude-desktop' },
        { path: garbage, host: 'cursor' },
        { path: missing, host: 'cursor' },
      ],
    });
    expect(preview.candidates).toEqual([]);
    const [brokenSource, garbageSource, missingSource] = preview.sources;
    expect(brokenSource?.error).toMatchObject({ code: 'invalid-input', message: expect.stringMatching(/not valid JSON at line 5/) });
    expect(garbageSource?.error?.code).toBe('invalid-input');
    // V8 quotes the start of an unparsable text; for a config that may be a token.
    expect(garbageSource?.error?.message).not.toMatch(/123456/);
    expect(missingSource?.error).toEqual({ code: 'missing', message: `"${missing}" does not exist.` });
  });

  it('discovers user and workspace configs (under a stand-in home), filtered by host, and names registry duplicates', async () => {
    const home = tempDir('home-');
    vi.stubEnv('HOME', home);
    vi.stubEnv('USERPROFILE', home);
    vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
    vi.stubEnv('APPDATA', path.join(home, 'AppData', 'Roaming'));
    vi.stubEnv('LOCALAPPDATA', path.join(home, 'AppData', 'Local'));
    const userCursor = copyFixture(['cursor', '.cursor', 'mcp.json'], ['.cursor', 'mcp.json'], home);
    const workspace = tempDir('workspace-');
    const workspaceVscode = copyFixture(['vscode', '.vscode', 'mcp.json'], ['.vscode', 'mcp.json'], workspace);

    const host = await startHost({ runServers: false });
    const existing = await host.addServer({ name: 'old sse', transport: { type: 'sse', url: 'http://localhost:3001/sse', headers: {} }, enabled: true, sharing: true });

    const all = await call(host, 'import.preview', { workspaces: [workspace] });
    expect(all.sources).toEqual([
      { host: 'cursor', path: userCursor, scope: 'user' },
      { host: 'vscode', path: workspaceVscode, scope: 'workspace' },
    ]);
    expect(candidate(all, 'vscode', 'legacy-sse')).toMatchObject({ duplicateOf: existing.id, importable: false });

    const onlyVscode = await call(host, 'import.preview', { from: ['vscode'], workspaces: [`${workspace}/`] });
    expect(onlyVscode.sources.map((source) => source.path)).toEqual([workspaceVscode]);
  });
});

describe('import.apply', () => {
  it('adds the chosen servers masked, with no folders granted, filling only the variables given', async () => {
    const host = await startHost({ runServers: false });
    await host.addRoots([tempDir('granted-nowhere-')]);
    const files = threeHosts();
    const preview = await call(host, 'import.preview', {
      files: [
        { path: files.claude, host: 'claude-desktop' },
        { path: files.vscode, host: 'vscode' },
      ],
    });
    const keys = [candidate(preview, 'claude-desktop', 'github').key, candidate(preview, 'vscode', 'github').key, candidate(preview, 'vscode', 'sqlite').key];
    const result = await call(host, 'import.apply', {
      previewId: preview.previewId,
      keys,
      names: { [keys[2] as string]: 'project db' },
      values: { '${input:github-token}': 'ghp_filled-in-secret' },
    });

    expect(result.failed).toEqual([]);
    const text = JSON.stringify(result);
    for (const secret of [...FIXTURE_SECRETS, 'ghp_filled-in-secret']) expect(text).not.toContain(secret);
    expect(result.added.map((added) => [added.key, added.server.name, added.server.enabled, added.unresolved])).toEqual([
      [keys[0], 'github', true, []],
      [keys[1], 'github (vscode)', true, []],
      // Still holds ${input:db-path}: added, but switched off until it is filled in.
      [keys[2], 'project db', false, ['${input:db-path}']],
    ]);
    expect(result.added[1]?.server.transport).toEqual({ type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: SECRET_MASK } });
    for (const { server } of result.added) {
      expect(server.grantedRootIds).toEqual([]);
      expect(server.effectiveRootIds).toEqual([]);
      expect(host.registrySnapshot.grants[server.id] ?? {}).toEqual({});
    }
    // The value reached the registry (the server needs it), just not the UI.
    const stored = host.registrySnapshot.servers.find((server) => server.name === 'github (vscode)');
    expect(stored?.transport).toMatchObject({ headers: { Authorization: 'Bearer ghp_filled-in-secret' } });
  });

  it('a stale or foreign preview, an unknown key or a repeat is a typed error that changes nothing', async () => {
    const host = await startHost({ runServers: false });
    const other = await startHost({ runServers: false });
    const files = threeHosts();
    const request = { files: [{ path: files.claude, host: 'claude-desktop' as const }] };
    const first = await call(host, 'import.preview', request);
    const current = await call(host, 'import.preview', request);
    const github = candidate(current, 'claude-desktop', 'github').key;
    const before = JSON.stringify(host.registrySnapshot);

    expect(await refused(host, 'import.apply', { previewId: first.previewId, keys: [github] })).toMatchObject({ code: 'not-found' });
    expect(await refused(other, 'import.apply', { previewId: current.previewId, keys: [github] })).toMatchObject({ code: 'not-found' });
    // One unknown key sinks the whole call: no partial import.
    expect(await refused(host, 'import.apply', { previewId: current.previewId, keys: [github, `${files.claude}#nope`] })).toMatchObject({
      code: 'not-found',
    });
    // Gone from the file since the preview: the apply re-reads it.
    const config = JSON.parse(fs.readFileSync(files.claude, 'utf8')) as { mcpServers: Record<string, unknown> };
    const { github: _removed, ...rest } = config.mcpServers;
    fs.writeFileSync(files.claude, JSON.stringify({ ...config, mcpServers: rest }));
    expect(await refused(host, 'import.apply', { previewId: current.previewId, keys: [github] })).toMatchObject({ code: 'not-found' });
    expect(JSON.stringify(host.registrySnapshot)).toBe(before);
    expect(JSON.stringify(other.registrySnapshot)).not.toContain('sqlite');

    // Applying twice (a double click): the second finds the server already there.
    const sqlite = candidate(current, 'claude-desktop', 'sqlite').key;
    await call(host, 'import.apply', { previewId: current.previewId, keys: [sqlite] });
    const afterFirst = JSON.stringify(host.registrySnapshot);
    expect(await refused(host, 'import.apply', { previewId: current.previewId, keys: [sqlite] })).toMatchObject({ code: 'duplicate' });
    expect(JSON.stringify(host.registrySnapshot)).toBe(afterFirst);
  });
});

describe('import.snippet', () => {
  it('previews a pasted snippet with secrets masked, and import.apply adds its servers from it', async () => {
    const host = await startHost();
    const text = JSON.stringify({
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_pasted_secret_123' } },
        fetch: { command: 'uvx', args: ['mcp-server-fetch'] },
      },
    });
    const preview = await call(host, 'import.snippet', { text });
    expect(preview.sources).toEqual([{ host: 'claude-desktop', path: 'pasted text', scope: 'pasted' }]);
    expect(preview.candidates.map((c) => [c.originalName, c.importable])).toEqual([['github', true], ['fetch', true]]);
    expect(JSON.stringify(preview)).not.toContain('ghp_pasted_secret_123');
    expect(candidate(preview, 'claude-desktop', 'github').transport).toMatchObject({ env: { GITHUB_TOKEN: SECRET_MASK } });

    const applied = await call(host, 'import.apply', { previewId: preview.previewId, keys: preview.candidates.map((c) => c.key) });
    expect(applied.added.map((added) => added.server.name)).toEqual(['github', 'fetch']);
    const stored = host.registrySnapshot.servers.find((server) => server.name === 'github');
    // The real value reached the registry (sealed or plain, never the mask), and no folder was granted.
    expect(stored?.transport).not.toMatchObject({ env: { GITHUB_TOKEN: SECRET_MASK } });
    expect(host.getState().servers.every((server) => server.grantedRootIds.length === 0)).toBe(true);
  });

  it('refuses text that is not a config, changing nothing', async () => {
    const host = await startHost();
    expect((await refused(host, 'import.snippet', { text: '{ "theme": "dark" }' })).code).toBe('invalid-input');
    expect((await refused(host, 'import.snippet', { text: '' })).code).toBe('invalid-input');
    expect(host.getState().servers).toEqual([]);
  });
});

describe('malformed payloads', () => {
  it('are refused on the new channels before anything is read or written', async () => {
    const host = await startHost({ runServers: false });
    const server = await host.addServer({ name: 'x', transport: { type: 'stdio', command: 'x', args: [], env: {} }, enabled: true, sharing: true });
    const dir = tempDir('untouched-');
    const absent = path.join(dir, 'mcp.json');
    const before = JSON.stringify(host.registrySnapshot);
    const invalid: [Channel, unknown][] = [
      ['import.preview', { from: [] }],
      ['import.preview', { from: ['notepad'] }],
      ['import.preview', { files: [] }],
      ['import.preview', { files: [{ path: absent }] }],
      ['import.preview', { files: [{ path: absent, host: 'vscode', extra: 1 }] }],
      ['import.preview', { workspaces: dir }],
      ['import.preview', { workspaces: [''] }],
      ['import.apply', { keys: ['a'] }],
      ['import.apply', { previewId: 'p', keys: [] }],
      ['import.apply', { previewId: 'p', keys: [1] }],
      ['import.apply', { previewId: 'p', keys: ['a'], values: { token: 'x' } }],
      ['import.apply', { previewId: 'p', keys: ['a'], names: { a: ' ' } }],
      ['useWith.apply', { host: 'notepad', serverIds: [server.id], file: absent }],
      ['useWith.apply', { host: 'cursor', serverIds: [], file: absent }],
      ['useWith.apply', { host: 'cursor', serverIds: [server.id], file: absent, workspace: dir }],
      ['useWith.apply', { host: 'cursor', serverIds: [server.id], file: absent, project: '/p' }],
      ['useWith.apply', { host: 'cursor', serverIds: [server.id], file: absent, launcher: 'bash' }],
      ['useWith.preview', { host: 'cursor', serverIds: [server.id], file: 7 }],
    ];
    for (const [channel, payload] of invalid) {
      expect(await refused(host, channel, payload), `${channel} ${JSON.stringify(payload)}`).toMatchObject({ code: 'invalid-input' });
    }
    // Shape right, path wrong: the host's path rules answer with their own codes.
    expect(await refused(host, 'import.preview', { files: [{ path: 'relative/mcp.json', host: 'vscode' }] })).toMatchObject({ code: 'not-absolute' });
    expect(await refused(host, 'import.preview', { workspaces: ['https://example.com/'] })).toMatchObject({ code: 'bad-scheme' });
    expect(await refused(host, 'useWith.apply', { host: 'cursor', serverIds: [server.id], file: 'mcp.json' })).toMatchObject({ code: 'not-absolute' });
    expect(await refused(host, 'useWith.apply', { host: 'cursor', serverIds: [server.id], file: `${absent}\0` })).toMatchObject({ code: 'nul-byte' });
    expect(await refused(host, 'useWith.apply', { host: 'cursor', serverIds: ['no-such-server'], file: absent })).toMatchObject({ code: 'not-found' });
    expect(await refused(host, 'useWith.apply', { host: 'claude-code', serverIds: [server.id], file: absent, project: '/p' })).toMatchObject({
      code: 'invalid-input',
    });

    expect(JSON.stringify(host.registrySnapshot)).toBe(before);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('useWith', () => {
  it('preview says what apply then writes: a valid config, every other key kept, and a backup', async () => {
    const host = await startHost({ runServers: false });
    const { claude } = threeHosts();
    const original = fs.readFileSync(claude, 'utf8');
    const imported = await call(host, 'import.preview', { files: [{ path: claude, host: 'claude-desktop' }] });
    const added = await call(host, 'import.apply', { previewId: imported.previewId, keys: imported.candidates.map((c) => c.key) });
    const ids = added.added.filter((a) => a.server.name !== 'sqlite').map((a) => a.server.id);
    const request = { host: 'claude-desktop' as const, serverIds: ids, file: claude };

    const plan = await call(host, 'useWith.preview', request);
    expect(fs.readFileSync(claude, 'utf8')).toBe(original);
    expect(fs.readdirSync(path.dirname(claude))).toEqual(['claude_desktop_config.json']);
    expect(plan).toMatchObject({ file: claude, exists: true, commentsDropped: false });
    expect(plan.entries.map((e) => [e.entry, e.replaced, e.args.slice(-4)])).toEqual([
      ['filesystem', true, ['proxy', '--config-dir', host.store.configDir, 'filesystem']],
      ['github', true, ['proxy', '--config-dir', host.store.configDir, 'github']],
    ]);

    const result = await call(host, 'useWith.apply', request);
    expect(result).toMatchObject({ file: claude, written: ['filesystem', 'github'], replaced: ['filesystem', 'github'], commentsDropped: false });
    expect(result.backup).toMatch(/claude_desktop_config\.json\..+\.bak$/);
    expect(fs.readFileSync(result.backup as string, 'utf8')).toBe(original);

    const text = fs.readFileSync(claude, 'utf8');
    const written = readHostConfig('claude-desktop', text, claude);
    for (const entry of plan.entries) {
      expect(written.entries.find((e) => e.name === entry.entry)?.entry).toEqual({ command: entry.command, args: entry.args });
    }
    const after = JSON.parse(text) as Record<string, Record<string, unknown>>;
    const before = JSON.parse(original) as Record<string, Record<string, unknown>>;
    expect(after.preferences).toEqual(before.preferences);
    expect(after.mcpServers?.sqlite).toEqual(before.mcpServers?.sqlite);
    // The secret that was in the host's file is gone with the entry; nothing of the registry's was written.
    expect(text).not.toContain('not-a-real-token-example');

    // Importing from the rewritten file finds our own proxies: nothing to take.
    const again = await call(host, 'import.preview', { files: [{ path: claude, host: 'claude-desktop' }] });
    expect(again.candidates.map((c) => [c.originalName, c.proxiedServer, c.importable])).toEqual([
      ['filesystem', 'filesystem', false],
      ['github', 'github', false],
      ['sqlite', undefined, false],
    ]);
  });

  it('creates a missing config without a backup, and refuses a broken one without quoting it', async () => {
    const host = await startHost({ runServers: false });
    const server = await host.addServer({ name: 'notes', transport: { type: 'stdio', command: 'notes-mcp', args: [], env: { TOKEN: 'clear-registry-secret' } }, enabled: true, sharing: true });
    const file = path.join(tempDir('new-cursor-'), '.cursor', 'mcp.json');

    expect(await call(host, 'useWith.preview', { host: 'cursor', serverIds: [server.id], file })).toMatchObject({ exists: false, entries: [{ entry: 'notes', replaced: false }] });
    expect(fs.existsSync(file)).toBe(false);
    const result = await call(host, 'useWith.apply', { host: 'cursor', serverIds: [server.id], file, launcher: 'path' });
    expect(result).toEqual({ file, backup: undefined, written: ['notes'], unchanged: [], replaced: [], commentsDropped: false });
    const text = fs.readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toEqual({ mcpServers: { notes: { command: 'mcp-roots', args: ['proxy', '--config-dir', host.store.configDir, 'notes'] } } });
    expect(text).not.toContain('clear-registry-secret');

    fs.writeFileSync(file, 'sk-123456');
    for (const channel of ['useWith.preview', 'useWith.apply'] as const) {
      const error = await refused(host, channel, { host: 'cursor', serverIds: [server.id], file });
      expect(error.code).toBe('invalid-input');
      expect(error.message).not.toMatch(/123456/);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('sk-123456');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['mcp.json']);
  });
});
