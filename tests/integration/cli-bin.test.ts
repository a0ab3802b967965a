// The installed command, `node bin/mcp-roots.js`, in a child process: what a person or a script
// sees on stdout and stderr, and the exit codes the README documents.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerReport } from '../../electron/cli/registry-view.js';
import { ensureBuilt, repoRoot, runCli } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(() => ensureBuilt(), 600_000);
afterEach(removeTempDirs);

describe('bin/mcp-roots.js', () => {
  it('prints its version and its help, exit 0', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await runCli(['help', 'servers', 'set']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mcp-roots servers set SERVER \[options\] \[-- COMMAND \[ARG\.\.\.\]\]/);
    expect(help.stdout).toContain('--sharing <state>');
    expect(await runCli(['servers', 'set', '--help'])).toEqual(help);
  });

  it('a mistyped server or root name gets a "did you mean", as a mistyped command does', async () => {
    const env = { ...process.env, MCP_ROOTS_CONFIG_DIR: tempDir('did-you-mean-') };
    const cwd = tempDir('projects-');
    fs.mkdirSync(path.join(cwd, 'project-a'));
    expect((await runCli(['roots', 'add', 'project-a'], { env, cwd })).code).toBe(0);
    expect((await runCli(['servers', 'add', 'filesystem', '--', 'node', 'server.js'], { env })).code).toBe(0);
    expect(await runCli(['grant', 'filesytem', 'project-a'], { env, cwd })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-roots: No server matches "filesytem" (did you mean filesystem?) (see: mcp-roots servers list).\n',
    });
    expect((await runCli(['grant', 'filesystem', 'projct-a'], { env, cwd })).stderr).toBe(
      'mcp-roots: No root matches "projct-a" (did you mean project-a?) (see: mcp-roots roots list).\n',
    );
    // Nothing near: the error as before.
    expect((await runCli(['grant', 'zzzzzzzzzz', 'project-a'], { env, cwd })).stderr).toBe('mcp-roots: No server matches "zzzzzzzzzz" (see: mcp-roots servers list).\n');
  });

  it('stops quietly, exit 0, when the reader of its output has gone (`mcp-roots --help | true`)', async () => {
    // `true` exits without reading: the help's write meets a closed pipe (EPIPE), not a stack trace.
    const result = spawnSync('bash', ['-c', `node ${JSON.stringify(path.join(repoRoot, 'bin/mcp-roots.js'))} --help | true; echo "cli=\${PIPESTATUS[0]}" >&2`], { encoding: 'utf8' });
    expect(result.stderr).toBe('cli=0\n');
  });

  it('adds the README\'s servers: --arg values that start with -, and everything after --', async () => {
    const configDir = tempDir('bin-config-');
    const env = { ...process.env, MCP_ROOTS_CONFIG_DIR: configDir };
    expect((await runCli(['servers', 'add', 'filesystem', '--command', 'npx', '--arg', '-y', '--arg', '@modelcontextprotocol/server-filesystem'], { env })).code).toBe(0);
    expect((await runCli(['servers', 'add', 'fs', '--', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '${roots}'], { env })).code).toBe(0);
    const servers = JSON.parse((await runCli(['servers', 'list', '--json'], { env })).stdout) as ServerReport[];
    expect(servers.map((server) => [server.name, server.transport])).toEqual([
      ['filesystem', { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'], env: {} }],
      ['fs', { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${roots}'], env: {} }],
    ]);
  });

  it('maps a folder to the path the server sees it at, and unmaps it (servers set --map / --unmap)', async () => {
    const configDir = tempDir('bin-map-');
    const here = tempDir('bin-map-cwd-');
    const env = { ...process.env, MCP_ROOTS_CONFIG_DIR: configDir };
    expect((await runCli(['servers', 'add', 'box', '--', 'docker', 'run', '-i', 'some/image'], { env })).code).toBe(0);
    const mapped = await runCli(['servers', 'set', 'box', '--map', 'proj=/projects/proj'], { env, cwd: here });
    expect(mapped).toEqual({ code: 0, stdout: `box: ${path.join(here, 'proj')} seen at /projects/proj\n`, stderr: '' });
    const pathMapOf = async () => (JSON.parse((await runCli(['servers', 'list', '--json'], { env })).stdout) as { pathMap?: unknown }[])[0]?.pathMap;
    expect(await pathMapOf()).toEqual([{ hostPath: path.join(here, 'proj'), serverPath: '/projects/proj' }]);
    expect((await runCli(['servers', 'set', 'box', '--unmap', path.join(here, 'proj')], { env })).stdout).toBe(`box: ${path.join(here, 'proj')} no longer mapped\n`);
    expect(await pathMapOf()).toEqual([]);
    expect(await runCli(['servers', 'set', 'box', '--map', '/projects/proj'], { env })).toMatchObject({ code: 2, stderr: expect.stringContaining('--map takes HOST=SERVER') });
  });

  it("opens and closes ports of this computer for a server (servers set --allow-local / --deny-local), each checked", async () => {
    const env = { ...process.env, MCP_ROOTS_CONFIG_DIR: tempDir('bin-ports-') };
    expect((await runCli(['servers', 'add', 'remote', '--', 'npx', '-y', 'mcp-remote', 'http://127.0.0.1:3000/mcp'], { env })).code).toBe(0);
    const opened = await runCli(['servers', 'set', 'remote', '--allow-local', '8080', '--allow-local', '3000'], { env });
    expect(opened).toEqual({ code: 0, stdout: 'remote: local port 8080 open; local port 3000 open; a running server restarts to apply them\n', stderr: '' });
    const portsOf = async () => (JSON.parse((await runCli(['servers', 'list', '--json'], { env })).stdout) as { allowLocal?: number[] }[])[0]?.allowLocal;
    expect(await portsOf()).toEqual([3000, 8080]);
    expect((await runCli(['servers', 'list'], { env })).stdout).toContain('ports of this computer open to it: 3000, 8080');
    expect((await runCli(['servers', 'set', 'remote', '--deny-local', '8080'], { env })).stdout).toBe('remote: local port 8080 closed; a running server restarts to apply them\n');
    expect(await portsOf()).toEqual([3000]);
    for (const bad of ['0', '65536', '80/tcp', 'http']) {
      expect(await runCli(['servers', 'set', 'remote', '--allow-local', bad], { env })).toMatchObject({ code: 2, stderr: expect.stringContaining(`--allow-local takes a port of this computer, a whole number between 1 and 65535; got "${bad}"`) });
    }
    expect(await portsOf()).toEqual([3000]);
  });

  it('exits 2 with one line and a pointer for a usage error, with a suggestion where one fits', async () => {
    expect(await runCli(['sevrers', 'list'])).toEqual({ code: 2, stdout: '', stderr: "mcp-roots: unknown command 'sevrers' (did you mean servers?)\nRun 'mcp-roots --help' for usage.\n" });
    expect(await runCli(['servers', 'add', 'x', '--arg'])).toEqual({ code: 2, stdout: '', stderr: "mcp-roots: option '--arg <arg>' argument missing\nRun 'mcp-roots servers add --help' for usage.\n" });
  });

  it('exits 1 when the work fails, saying what failed', async () => {
    const configDir = tempDir('bin-config-');
    expect(await runCli(['--config-dir', configDir, 'roots', 'add', path.join(configDir, 'missing')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `mcp-roots: not added: "${path.join(configDir, 'missing')}" does not exist.\n`,
    });
  });

  it('resolves a relative path against the folder it is run in', async () => {
    const configDir = tempDir('bin-config-');
    const folder = tempDir('bin-folder-');
    const result = await runCli(['--config-dir', configDir, 'roots', 'add', '.', '--json'], { cwd: folder });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { added: { path: string }[] }).added.map((root) => root.path)).toEqual([folder]);
  });
});
