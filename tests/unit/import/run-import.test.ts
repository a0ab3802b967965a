// The CLI entry points the `mcp-roots import` and `mcp-roots use-with` commands call.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runImport, runUseWith } from '../../../electron/import/run-import.js';
import { removeTempDirs, tempDir } from '../../support/index.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/import');

afterEach(() => removeTempDirs());

function capture() {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { out, err, text: () => ({ stdout, stderr }) };
}

describe('runImport / runUseWith', () => {
  it('previews (secrets masked in JSON), imports, then rewrites the Claude Desktop config', async () => {
    const configDir = tempDir('cli-config-');
    const claude = path.join(tempDir('claude-'), 'claude_desktop_config.json');
    fs.copyFileSync(path.join(fixtures, 'claude-desktop', 'claude_desktop_config.json'), claude);

    const preview = capture();
    expect(await runImport({ configDir, files: [claude], ...preview })).toBe(0);
    expect(preview.text().stdout).toMatch(/Claude Desktop {2}.*claude_desktop_config\.json\n {2}\+ filesystem {2}npx -y @modelcontextprotocol\/server-filesystem/);

    const json = capture();
    expect(await runImport({ configDir, files: [claude], json: true, ...json })).toBe(0);
    expect(json.text().stdout).not.toContain('not-a-real-token-example');

    const applied = capture();
    expect(await runImport({ configDir, files: [claude], apply: true, only: ['filesystem'], ...applied })).toBe(0);
    expect(applied.text().stdout).toMatch(/^imported filesystem \(.+\); no folders granted\n$/);

    const rewritten = capture();
    expect(await runUseWith({ configDir, host: 'claude-desktop', servers: ['filesystem'], file: claude, launcher: 'path', ...rewritten })).toBe(0);
    expect(rewritten.text().stdout).toMatch(/filesystem -> mcp-roots proxy filesystem \(replaced\)\nbackup: .+\.bak\n/);
    const written = JSON.parse(fs.readFileSync(claude, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(written.mcpServers.filesystem).toEqual({ command: 'mcp-roots', args: ['proxy', '--config-dir', configDir, 'filesystem'] });
  });

  it('run again with the entry already pointing at the proxy: says nothing changed, writes nothing, backs nothing up', async () => {
    const configDir = tempDir('cli-config-');
    const folder = tempDir('claude-');
    const claude = path.join(folder, 'claude_desktop_config.json');
    fs.copyFileSync(path.join(fixtures, 'claude-desktop', 'claude_desktop_config.json'), claude);
    expect(await runImport({ configDir, files: [claude], apply: true, only: ['filesystem'], ...capture() })).toBe(0);
    expect(await runUseWith({ configDir, host: 'claude-desktop', servers: ['filesystem'], file: claude, launcher: 'path', ...capture() })).toBe(0);
    const before = { text: fs.readFileSync(claude, 'utf8'), files: fs.readdirSync(folder).sort() };

    const again = capture();
    expect(await runUseWith({ configDir, host: 'claude-desktop', servers: ['filesystem'], file: claude, launcher: 'path', ...again })).toBe(0);
    expect(again.text().stdout).toMatch(/ {2}filesystem -> mcp-roots proxy filesystem \(unchanged\)\nalready set up; nothing changed\n$/);
    expect(again.text().stdout).not.toMatch(/added|created|backup|Restart/);
    expect({ text: fs.readFileSync(claude, 'utf8'), files: fs.readdirSync(folder).sort() }).toEqual(before);
  });

  it('a host\'s own server of the same name is never replaced silently: refused with the two ways on, then added beside it or replaced as asked (#30 item 3)', async () => {
    const configDir = tempDir('cli-config-');
    const claude = path.join(tempDir('claude-'), 'claude_desktop_config.json');
    const theirs = { command: 'their-own-server', args: ['--flag'] };
    fs.writeFileSync(claude, JSON.stringify({ mcpServers: { notes: theirs } }));
    const { RegistryEditor } = await import('../../../electron/host/registry/registry-commands.js');
    const editor = await RegistryEditor.open(configDir);
    await editor.addServer({ name: 'notes', transport: { type: 'stdio', command: 'node', args: ['notes.js'], env: {} }, enabled: true, sharing: true });
    await editor.close();
    const read = () => (JSON.parse(fs.readFileSync(claude, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers;

    const refused = capture();
    expect(await runUseWith({ configDir, host: 'claude-desktop', servers: ['notes'], file: claude, launcher: 'path', ...refused })).toBe(2);
    expect(refused.text().stderr).toMatch(/already has a different server named notes: .*nothing was written\. Run it again with --on-clash add \(ours as NAME-2 beside it\) or --on-clash replace\.\n$/);
    expect(read()).toEqual({ notes: theirs });

    const added = capture();
    expect(await runUseWith({ configDir, host: 'claude-desktop', servers: ['notes'], file: claude, launcher: 'path', onClash: 'add', ...added })).toBe(0);
    expect(added.text().stdout).toContain("notes-2 -> mcp-roots proxy notes (added beside the host's own notes)");
    expect(read().notes).toEqual(theirs);
    expect(read()['notes-2']).toEqual({ command: 'mcp-roots', args: ['proxy', '--config-dir', configDir, 'notes'] });

    fs.writeFileSync(claude, JSON.stringify({ mcpServers: { notes: theirs } }));
    const replaced = capture();
    expect(await runUseWith({ configDir, host: 'claude-desktop', servers: ['notes'], file: claude, launcher: 'path', onClash: 'replace', ...replaced })).toBe(0);
    expect(replaced.text().stdout).toContain("notes -> mcp-roots proxy notes (replaced the host's own server of that name)");
    expect(read()).toEqual({ notes: { command: 'mcp-roots', args: ['proxy', '--config-dir', configDir, 'notes'] } });
  });

  it('says what is wrong, with exit code 2 for bad input', async () => {
    const configDir = tempDir('cli-config-');
    const bad = capture();
    expect(await runUseWith({ configDir, host: 'notepad', servers: ['x'], ...bad })).toBe(2);
    expect(bad.text().stderr).toMatch(/use-with takes one of: claude-desktop, vscode, cursor, claude-code/);
    const unknown = capture();
    expect(await runImport({ configDir, files: ['/tmp/servers.json'], ...unknown })).toBe(2);
    expect(unknown.text().stderr).toMatch(/Cannot tell which host/);
    const missing = capture();
    expect(await runUseWith({ configDir, host: 'cursor', servers: ['nobody'], file: path.join(tempDir('c-'), 'mcp.json'), ...missing })).toBe(1);
    expect(missing.text().stderr).toMatch(/No server matches "nobody"/);
  });
});
