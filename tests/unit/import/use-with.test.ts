// "Use with <host>": a host's config rewritten so chosen servers run through mcp-roots proxy,
// with a backup, every other key untouched, and a refusal to touch a file that does not parse.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../../shared/domain.js';
import { emptyRegistry } from '../../../shared/registry-schema.js';
import { applyImport } from '../../../electron/import/apply-import.js';
import { importable, previewImport } from '../../../electron/import/preview-import.js';
import {
  findOnPath,
  installedScript,
  nodeLauncher,
  pathLauncher,
  proxiedServerOf,
  proxyCommand,
  type ProxyLauncher,
} from '../../../electron/import/proxy-launcher.js';
import { useWith } from '../../../electron/import/use-with.js';
import { RootsHost } from '../../../electron/host/roots-host.js';
import { removeTempDirs, tempDir } from '../../support/index.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/import');
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const LAUNCHER: ProxyLauncher = { kind: 'node', node: '/usr/local/bin/node', script: '/opt/mcp-roots/bin/mcp-roots.js' };
const NOW = new Date('2026-11-20T10:11:12.345Z');

afterEach(() => removeTempDirs());

function copyFixture(from: string[], to: string[]): string {
  const target = path.join(tempDir('host-config-'), ...to);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(path.join(fixtures, ...from), target);
  return target;
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
const server = (name: string, transport: ServerRecord['transport']) => ({ name, transport });

describe('useWith', () => {
  it('Claude Desktop round trip: import, use with, valid config + backup, re-import sees the proxies', async () => {
    const file = copyFixture(['claude-desktop', 'claude_desktop_config.json'], ['Claude', 'claude_desktop_config.json']);
    const original = fs.readFileSync(file, 'utf8');

    // Import into a registry, then send two of the servers back through the proxy.
    const configDir = tempDir('roots-config-');
    const host = new RootsHost({ configDir, runServers: false, monitor: { sweepIntervalMs: 0 } });
    await host.start();
    const source = { host: 'claude-desktop' as const, path: file, scope: 'user' as const };
    const outcome = await applyImport(host, importable(await previewImport([source], host.registrySnapshot)).map((candidate) => ({ candidate })));
    expect(outcome.added.map((a) => a.name)).toEqual(['filesystem', 'github', 'sqlite']);
    const chosen = host.registrySnapshot.servers.filter((s) => s.name !== 'sqlite');

    const result = await useWith('claude-desktop', file, chosen, { launcher: LAUNCHER, configDir, now: NOW });
    expect(result.entries).toEqual([
      { server: 'filesystem', entry: 'filesystem', replaced: true, unchanged: false },
      { server: 'github', entry: 'github', replaced: true, unchanged: false },
    ]);
    expect(result.backupPath).toBe(`${file}.2026-11-20T10-11-12-345Z.bak`);
    expect(fs.readFileSync(result.backupPath as string, 'utf8')).toBe(original);
    expect(result.commentsDropped).toBe(false);

    // Strict JSON (Claude Desktop does not take comments), every other key as it was, same order.
    const before = JSON.parse(original) as Record<string, Record<string, unknown>>;
    const after = readJson(file);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(after.globalShortcut).toEqual(before.globalShortcut);
    expect(after.preferences).toEqual(before.preferences);
    expect(Object.keys(after.mcpServers ?? {})).toEqual(['filesystem', 'github', 'sqlite']);
    expect(after.mcpServers?.sqlite).toEqual(before.mcpServers?.sqlite);
    expect(after.mcpServers?.filesystem).toEqual({
      command: '/usr/local/bin/node',
      args: ['/opt/mcp-roots/bin/mcp-roots.js', 'proxy', '--config-dir', configDir, 'filesystem'],
    });

    // Importing the rewritten file again finds our proxies and the server already imported: nothing new.
    const again = await previewImport([source], host.registrySnapshot);
    expect(again.candidates.map((c) => [c.originalName, c.proxiedServer ?? c.duplicateOf])).toEqual([
      ['filesystem', 'filesystem'],
      ['github', 'github'],
      ['sqlite', host.registrySnapshot.servers.find((s) => s.name === 'sqlite')?.id],
    ]);
    expect(importable(again)).toEqual([]);
    await host.stop();

    // Doing it twice changes nothing: nothing is written, no second backup, the file untouched.
    const stat = fs.statSync(file);
    const twice = await useWith('claude-desktop', file, chosen, { launcher: LAUNCHER, configDir, now: new Date(NOW.getTime() + 60_000) });
    expect(twice.wrote).toBe(false);
    expect(twice.backupPath).toBeUndefined();
    expect(twice.entries.map((entry) => [entry.entry, entry.unchanged, entry.replaced])).toEqual([
      ['filesystem', true, false],
      ['github', true, false],
    ]);
    expect(readJson(file)).toEqual(after);
    expect(fs.statSync(file).mtimeMs).toBe(stat.mtimeMs);
    expect(fs.readdirSync(path.dirname(file)).filter((name) => name.endsWith('.bak'))).toHaveLength(1);
  });

  it('refuses a file that does not parse and leaves it (and its folder) alone', async () => {
    const file = copyFixture(['broken', 'claude_desktop_config.json'], ['Claude', 'claude_desktop_config.json']);
    const original = fs.readFileSync(file, 'utf8');
    await expect(useWith('claude-desktop', file, [server('x', { type: 'stdio', command: 'x', args: [], env: {} })], { launcher: LAUNCHER })).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/not valid JSON at line 5/),
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['claude_desktop_config.json']);

    fs.writeFileSync(file, '{"mcpServers": []}');
    await expect(useWith('claude-desktop', file, [server('x', { type: 'stdio', command: 'x', args: [], env: {} })], { launcher: LAUNCHER })).rejects.toThrow(
      /"mcpServers" in the config is not an object/,
    );
  });

  it('VS Code: writes `servers` entries with type stdio, keeps inputs, reports the comments it could not keep', async () => {
    const file = copyFixture(['vscode', '.vscode', 'mcp.json'], ['.vscode', 'mcp.json']);
    const result = await useWith(
      'vscode',
      file,
      [server('local files', { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}'], env: {} })],
      { launcher: pathLauncher(), now: NOW },
    );
    // Matched by what it runs, not by name: the host keeps its own name for the entry.
    expect(result.entries).toEqual([{ server: 'local files', entry: 'filesystem', replaced: true, unchanged: false }]);
    // Run again: the entry now runs the proxy under its old name, and is found as already done.
    const again = await useWith('vscode', file, [server('local files', { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}'], env: {} })], {
      launcher: pathLauncher(),
      now: NOW,
    });
    expect(again).toMatchObject({ wrote: false, entries: [{ server: 'local files', entry: 'filesystem', replaced: false, unchanged: true }] });
    expect(result.commentsDropped).toBe(true);
    expect(fs.readFileSync(result.backupPath as string, 'utf8')).toContain('// Servers for this workspace');
    const after = readJson(file);
    expect(after.servers?.filesystem).toEqual({ type: 'stdio', command: 'mcp-roots', args: ['proxy', 'local files'] });
    expect(after.servers?.github).toMatchObject({ type: 'http', headers: { Authorization: 'Bearer ${input:github-token}' } });
    expect((after.inputs as unknown as unknown[]).length).toBe(2);
  });

  it("Claude Code: a project's servers in ~/.claude.json, everything else untouched, file mode kept", async () => {
    const file = copyFixture(['claude-code', '.claude.json'], ['.claude.json']);
    fs.chmodSync(file, 0o600);
    const before = readJson(file);
    await useWith('claude-code', file, [server('notes', { type: 'stdio', command: 'notes-mcp', args: [], env: {} })], {
      launcher: LAUNCHER,
      project: '/Users/ada/code/shop',
      now: NOW,
    });
    const after = readJson(file);
    type Project = { mcpServers: Record<string, unknown>; history: unknown };
    const shop = (after.projects as Record<string, Project>)['/Users/ada/code/shop'];
    const shopBefore = (before.projects as Record<string, Project>)['/Users/ada/code/shop'];
    expect(shop?.mcpServers).toEqual({
      postgres: shopBefore?.mcpServers.postgres,
      notes: { type: 'stdio', command: '/usr/local/bin/node', args: ['/opt/mcp-roots/bin/mcp-roots.js', 'proxy', 'notes'], env: {} },
    });
    expect(shop?.history).toEqual(shopBefore?.history);
    expect({ ...after, projects: undefined }).toEqual({ ...before, projects: undefined });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('creates a config that does not exist yet (nothing to back up) and Cursor entries without a type', async () => {
    const file = path.join(tempDir('fresh-'), '.cursor', 'mcp.json');
    const result = await useWith('cursor', file, [server('fs', { type: 'stdio', command: 'x', args: [], env: {} })], { launcher: pathLauncher('/opt/bin/mcp-roots') });
    expect(result.backupPath).toBeUndefined();
    expect(readJson(file)).toEqual({ mcpServers: { fs: { command: '/opt/bin/mcp-roots', args: ['proxy', 'fs'] } } });
    const preview = await previewImport([{ host: 'cursor', path: file, scope: 'user' }], emptyRegistry());
    expect(preview.candidates[0]?.proxiedServer).toBe('fs');
  });
});

// Issue 23 item 8: Claude Desktop's own filesystem (other folders) was replaced by the app's.
describe('useWith: a name the host gives a different server', () => {
  const theirs = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/private'] };
  const ours = server('filesystem', { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/code'], env: {} });
  const config = () => {
    const file = path.join(tempDir('host-config-'), 'claude_desktop_config.json');
    fs.writeFileSync(file, `${JSON.stringify({ mcpServers: { filesystem: theirs } }, null, 2)}\n`);
    return file;
  };

  it('replaces nothing until told: the clash is reported, and a write without a choice is refused', async () => {
    const file = config();
    const before = fs.readFileSync(file, 'utf8');
    await expect(useWith('claude-desktop', file, [ours], { launcher: LAUNCHER, now: NOW, clashes: {} })).rejects.toThrow(/already has a different server named filesystem/);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['claude_desktop_config.json']);
  });

  it('adds ours as NAME-2 beside theirs, and finds it there the next time', async () => {
    const file = config();
    const added = await useWith('claude-desktop', file, [ours], { launcher: LAUNCHER, now: NOW, clashes: { filesystem: 'add' } });
    expect(added.entries).toEqual([{ server: 'filesystem', entry: 'filesystem-2', replaced: false, unchanged: false, clash: 'add', addAs: 'filesystem-2' }]);
    expect(readJson(file).mcpServers).toEqual({ filesystem: theirs, 'filesystem-2': { command: '/usr/local/bin/node', args: ['/opt/mcp-roots/bin/mcp-roots.js', 'proxy', 'filesystem'] } });
    // Our own entry is found under its new name: no clash the second time, nothing to write.
    const again = await useWith('claude-desktop', file, [ours], { launcher: LAUNCHER, now: NOW, clashes: {} });
    expect(again.entries).toEqual([{ server: 'filesystem', entry: 'filesystem-2', replaced: false, unchanged: true }]);
  });

  it('replaces theirs when that is chosen', async () => {
    const file = config();
    const replaced = await useWith('claude-desktop', file, [ours], { launcher: LAUNCHER, now: NOW, clashes: { filesystem: 'replace' } });
    expect(replaced.entries).toEqual([{ server: 'filesystem', entry: 'filesystem', replaced: true, unchanged: false, clash: 'replace', addAs: 'filesystem-2' }]);
    expect(Object.keys(readJson(file).mcpServers ?? {})).toEqual(['filesystem']);
  });

  it('is no clash where the entry of that name runs the same server', async () => {
    const file = config();
    const same = server('filesystem', { type: 'stdio', command: 'npx', args: theirs.args, env: {} });
    const result = await useWith('claude-desktop', file, [same], { launcher: LAUNCHER, now: NOW, clashes: {} });
    expect(result.entries).toEqual([{ server: 'filesystem', entry: 'filesystem', replaced: true, unchanged: false }]);
  });
});

describe('proxy launchers', () => {
  it('node + script (absolute, the default) or a name on PATH; both recognized as ours', () => {
    const node = nodeLauncher('/opt/app/bin/mcp-roots.js', '/usr/bin/node');
    expect(proxyCommand(node, 'filesystem', '/cfg')).toEqual({
      command: '/usr/bin/node',
      args: ['/opt/app/bin/mcp-roots.js', 'proxy', '--config-dir', '/cfg', 'filesystem'],
      env: undefined,
    });
    expect(proxyCommand(pathLauncher(), 'my server')).toEqual({ command: 'mcp-roots', args: ['proxy', 'my server'], env: undefined });
    expect(proxiedServerOf('/usr/bin/node', ['/opt/app/bin/mcp-roots.js', 'proxy', '--config-dir', '/cfg', 'filesystem'])).toBe('filesystem');
    expect(proxiedServerOf('C:\\Program Files\\nodejs\\node.exe', ['C:\\app\\bin\\mcp-roots.js', 'proxy', '--roots-policy', 'host', 'fs'])).toBe('fs');
    expect(proxiedServerOf('npx', ['-y', '@modelcontextprotocol/server-filesystem', '/proxy'])).toBeUndefined();
  });

  it('finds this installation and names on PATH', () => {
    expect(installedScript()).toBe(path.join(repoRoot, 'bin', 'mcp-roots.js'));
    const dir = tempDir('path-');
    const exe = path.join(dir, 'mcp-roots');
    fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
    expect(findOnPath('mcp-roots', { PATH: `/nonexistent:${dir}` }, 'linux')).toBe(exe);
    expect(findOnPath('mcp-roots', { PATH: '/nonexistent' }, 'linux')).toBeUndefined();
  });
});
