// The CLI in another process (the real bin/mcp-roots.js) edits the same registry; a running host
// tells its servers (how fast: the benchmark).
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repoRoot, runCli } from '../support/cli.js';
import { addConnectedServer, callText, startHost, stopHosts } from '../support/host-harness.js';
import { allowedDirectories, filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';

/** Like execFile: resolves on exit 0, rejects with the code, stdout and stderr otherwise. */
async function cli(configDir: string, ...args: string[]) {
  const result = await runCli(['--config-dir', configDir, ...args], { cwd: repoRoot });
  if (result.code !== 0) throw Object.assign(new Error(`mcp-roots ${args.join(' ')} exited ${result.code}`), result);
  return result;
}

beforeAll(() => ensureBuilt(), 600_000);

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('CLI edits reach a running host', () => {
  it('mcp-roots grant / revoke in another process changes what server-filesystem sees', async () => {
    const host = await startHost();
    const configDir = host.store.configDir;
    const folder = tempDir('cli-folder-');
    const fsServer = await addConnectedServer(host, 'filesystem', filesystemServer());

    const added = await cli(configDir, 'roots', 'add', folder);
    expect(added.stdout).toContain('added');
    await waitFor(() => host.getState().roots.length === 1, { what: 'root from the CLI' });

    await cli(configDir, 'grant', 'filesystem', folder);
    // The CLI process has exited here; from now on only the host's file watch can react.
    await waitFor(
      async () => allowedDirectories(await callText(host, fsServer, 'list_allowed_directories')).includes(folder),
      { what: 'the grant to reach the server', intervalMs: 10 },
    );

    const status = await cli(configDir, 'status', '--json');
    const state = JSON.parse(status.stdout) as { servers: { name: string; grantedRootIds: string[] }[] };
    expect(state.servers.find((server) => server.name === 'filesystem')?.grantedRootIds).toHaveLength(1);

    await cli(configDir, 'revoke', 'filesystem', folder);
    await waitFor(
      async () => allowedDirectories(await callText(host, fsServer, 'list_allowed_directories')).length === 0,
      { what: 'the revoke to reach the server' },
    );
  });

  it('a CLI grant for one server tells that server only; the roots the app already had are not rebuilt', async () => {
    const host = await startHost();
    const configDir = host.store.configDir;
    const [mine, theirs] = [tempDir('cli-mine-'), tempDir('cli-theirs-')];
    const first = await addConnectedServer(host, 'first', filesystemServer());
    const second = await addConnectedServer(host, 'second', filesystemServer());
    await cli(configDir, 'roots', 'add', mine, theirs);
    await cli(configDir, 'grant', 'first', mine);
    await waitFor(async () => allowedDirectories(await callText(host, first, 'list_allowed_directories')).includes(mine), { what: 'the first grant' });
    const statusOf = (id: string) => host.getState().servers.find((server) => server.id === id)?.status;
    const told = statusOf(first)?.listChangedCount;
    const roots = host.getState().roots;

    await cli(configDir, 'grant', 'second', theirs);
    await waitFor(async () => allowedDirectories(await callText(host, second, 'list_allowed_directories')).includes(theirs), { what: 'the grant to reach the second server' });
    expect(allowedDirectories(await callText(host, first, 'list_allowed_directories'))).toEqual([mine]);
    expect(statusOf(first)?.listChangedCount).toBe(told);
    // The app read the whole file again; what did not change kept its identity (registry-sharing.ts).
    expect(host.getState().roots).toBe(roots);
  });

  it('reports bad input with a clear error and a non-zero exit code, changing nothing', async () => {
    const configDir = tempDir('cli-config-');
    // A relative path is taken from the folder the command runs in (here the repository).
    await expect(cli(configDir, 'roots', 'add', 'relative/path')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`"${path.join(repoRoot, 'relative/path')}" does not exist.`),
    });
    await expect(cli(configDir, 'roots', 'add', 'https://example.com/x')).rejects.toMatchObject({
      stderr: expect.stringContaining('Only file:// URIs'),
    });
    await expect(cli(configDir, 'grant', 'nobody', '/tmp')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No server matches'),
    });
    const list = await cli(configDir, 'roots', 'list', '--json');
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('adds stdio and http servers with env and headers', async () => {
    const configDir = tempDir('cli-config-');
    await cli(configDir, 'servers', 'add', 'local', '--command', 'node', '--arg', 'server.js', '--env', 'TOKEN=tok-s3cr3t-value', '--disabled');
    await cli(configDir, 'servers', 'add', 'remote', '--url', 'https://mcp.example.com/mcp', '--header', 'Authorization: Bearer x', '--transport', 'sse', '--disabled');
    const list = JSON.parse((await cli(configDir, 'servers', 'list', '--json')).stdout) as {
      name: string;
      transport: Record<string, unknown>;
    }[];
    expect(list.map((server) => server.name)).toEqual(['local', 'remote']);
    expect(list[0]?.transport).toMatchObject({ type: 'stdio', command: 'node', args: ['server.js'] });
    // Secrets never leave the host in clear, not even to the CLI's JSON.
    expect(JSON.stringify(list)).not.toContain('tok-s3cr3t-value');
    expect(JSON.stringify(list)).not.toContain('Bearer x');
    expect(list[1]?.transport).toMatchObject({ type: 'sse', url: 'https://mcp.example.com/mcp' });
  });
});
