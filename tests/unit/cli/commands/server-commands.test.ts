import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerReport } from '../../../../electron/cli/registry-view.js';
import { runMain } from '../../../support/cli-in-process.js';
import { removeTempDirs, tempDir } from '../../../support/temp-dirs.js';

let configDir: string;
let home: string;
const cli = (...args: string[]) => runMain(['--config-dir', configDir, ...args], { cwd: home, home });
const servers = async () => JSON.parse((await cli('servers', 'list', '--json')).stdout) as ServerReport[];
const server = async (name: string) => (await servers()).find((candidate) => candidate.name === name);

beforeEach(() => {
  configDir = tempDir('config-');
  home = tempDir('home-');
});
afterEach(removeTempDirs);

describe('servers add', () => {
  it('the README\'s form: --arg values that start with a dash, and ${roots}', async () => {
    const result = await cli('servers', 'add', 'filesystem', '--command', 'npx', '--arg', '-y', '--arg', '@modelcontextprotocol/server-filesystem', '--arg', '${roots}');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^added server filesystem \([0-9a-f]{6}\); it sees no folder until you grant one/);
    expect((await server('filesystem'))?.transport).toEqual({ type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${roots}'], env: {} });
  });

  it('names a server with a space quoted in its next step, so it can be pasted', async () => {
    const result = await cli('servers', 'add', 'my server', '--', 'node', 'server.js');
    expect(result.stdout).toMatch(/; it sees no folder until you grant one: mcp-roots grant 'my server' ROOT\n$/);
    fs.mkdirSync(path.join(home, 'docs'));
    await cli('roots', 'add', '~/docs');
    await cli('servers', 'set', 'my server', '--sharing', 'off');
    expect((await cli('grant', 'my server', 'docs')).stdout).toContain("(mcp-roots servers set 'my server' --sharing on)");
    await cli('servers', 'set', 'my server', '--enabled', 'off');
    expect((await cli('grant', 'my server', 'docs')).stdout).toBe("my server already had docs (read-only)\n");
    await cli('revoke', 'my server', 'docs');
    expect((await cli('grant', 'my server', 'docs')).stdout).toContain("(mcp-roots servers set 'my server' --enabled on)");
  });

  it('everything after -- is the command, options included', async () => {
    expect((await cli('servers', 'add', 'fs', '--env', 'LOG=debug', '--', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '--help', '${roots}')).code).toBe(0);
    expect((await server('fs'))?.transport).toEqual({ type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '--help', '${roots}'], env: { LOG: 'debug' } });
  });

  it('a URL server with headers; only secret values are masked in what is shown', async () => {
    await cli('servers', 'add', 'remote', '--url', 'https://mcp.example.com/mcp', '--header', 'Authorization: Bearer abcdefghijk', '--header', 'X-Region: eu', '--disabled', '--no-sharing');
    expect(await server('remote')).toMatchObject({
      enabled: false,
      sharing: false,
      transport: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: '••••••', 'X-Region': 'eu' } },
    });
    const text = (await cli('servers', 'list')).stdout;
    expect(text).toContain('http https://mcp.example.com/mcp');
    expect(text).toContain('headers: Authorization=••••••, X-Region=eu');
    expect(text).not.toContain('abcdefghijk');
  });

  it('refuses a second server of the same name', async () => {
    await cli('servers', 'add', 'fs', '--', 'a');
    expect(await cli('servers', 'add', 'fs', '--', 'b')).toMatchObject({ code: 1, stderr: 'mcp-roots: A server named "fs" already exists. Change it with: mcp-roots servers set fs … (or -- COMMAND to replace its command), or add this one under another name: mcp-roots servers add fs-2 …\n' });
  });
});

describe('servers set', () => {
  beforeEach(async () => {
    await cli('servers', 'add', 'fs', '--env', 'TOKEN=abc', '--env', 'LOG=info', '--', 'npx', '-y', 'pkg');
  });

  it('changes sharing and enabled, and says when a value was already so', async () => {
    expect((await cli('servers', 'set', 'fs', '--sharing', 'off')).stdout).toBe('fs: sharing off\n');
    expect((await cli('servers', 'set', 'fs', '--sharing', 'off', '--enabled', 'off')).stdout).toBe('fs: enabled off; sharing was already off\n');
    expect(await server('fs')).toMatchObject({ enabled: false, sharing: false });
    await cli('servers', 'set', 'fs', '--enabled', 'on', '--sharing', 'on');
    expect(await server('fs')).toMatchObject({ enabled: true, sharing: true });
  });

  it('changes sandbox, network and asking for folders, one flag each', async () => {
    expect(await server('fs')).toMatchObject({ sandbox: true, network: true, askForFolders: true });
    expect((await cli('servers', 'set', 'fs', '--sandbox', 'off', '--network', 'off', '--ask-for-folders', 'off')).stdout).toBe('fs: sandbox off; network off; ask-for-folders off\n');
    expect(await server('fs')).toMatchObject({ enabled: true, sharing: true, sandbox: false, network: false, askForFolders: false });
    expect((await cli('servers', 'list')).stdout).toContain('settings: sandbox off, network off, ask for folders off');
  });

  it('changes command, args, env, cwd and name, keeping what is not named', async () => {
    expect((await cli('servers', 'set', 'fs', '--env', 'LOG=debug', '--unset-env', 'TOKEN', '--cwd', '.', '--name', 'files')).stdout).toBe('fs: renamed to files; env changed; cwd changed\n');
    expect((await server('files'))?.transport).toEqual({ type: 'stdio', command: 'npx', args: ['-y', 'pkg'], env: { LOG: 'debug' }, cwd: home });
    await cli('servers', 'set', 'files', '--arg', '-y', '--arg', 'other');
    expect((await server('files'))?.transport).toMatchObject({ command: 'npx', args: ['-y', 'other'] });
    await cli('servers', 'set', 'files', '--no-cwd', '--', 'node', 'server.js', '--port', '0');
    expect((await server('files'))?.transport).toEqual({ type: 'stdio', command: 'node', args: ['server.js', '--port', '0'], env: { LOG: 'debug' } });
  });

  it('keeps a secret it is not told to change', async () => {
    await cli('servers', 'set', 'fs', '--env', 'LOG=debug');
    // Plain Node has no keychain: the registry file holds the value as given.
    const stored = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { servers: { transport: { env: Record<string, string> } }[] };
    expect(stored.servers[0]?.transport.env).toEqual({ TOKEN: 'abc', LOG: 'debug' });
  });

  it('changes url and headers of a URL server', async () => {
    await cli('servers', 'add', 'remote', '--url', 'https://a.test/mcp', '--header', 'Authorization: Bearer abcdefghijk');
    expect((await cli('servers', 'set', 'remote', '--url', 'https://b.test/mcp', '--transport', 'sse', '--header', 'X-Region: eu')).code).toBe(0);
    expect((await server('remote'))?.transport).toEqual({ type: 'sse', url: 'https://b.test/mcp', headers: { Authorization: '••••••', 'X-Region': 'eu' } });
  });

  it('refuses nothing to change, bad values and flags of the other kind', async () => {
    expect(await cli('servers', 'set', 'fs')).toMatchObject({ code: 2, stderr: "mcp-roots: Nothing to change: give at least one option.\nRun 'mcp-roots servers set --help' for usage.\n" });
    expect((await cli('servers', 'set', 'fs', '--sharing', 'maybe')).stderr).toMatch(/^mcp-roots: option '--sharing <state>' argument 'maybe' is invalid\. Allowed choices are on, off\.\n/);
    expect((await cli('servers', 'set', 'fs', '--header', 'a: b')).code).toBe(2);
    expect((await cli('servers', 'set', 'fs', '--url', 'not a url')).stderr).toMatch(/^mcp-roots: transport\.url: must be an http\(s\) URL/);
    expect((await server('fs'))?.transport).toMatchObject({ type: 'stdio', command: 'npx' });
  });
});

describe('servers remove', () => {
  it('removes by name or short id', async () => {
    await cli('servers', 'add', 'a', '--', 'x');
    await cli('servers', 'add', 'b', '--', 'y');
    const b = await server('b');
    expect((await cli('servers', 'remove', 'a', b?.shortId as string)).stdout).toMatch(/^removed server a \([0-9a-f]{6}\)\nremoved server b \([0-9a-f]{6}\)\n$/);
    expect(await servers()).toEqual([]);
  });
});
