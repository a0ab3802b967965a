// npx and uvx servers under the sandbox: the package is found or installed OUTSIDE the sandbox,
// then bound read-only and run directly; the user's writable ~/.npm is never inside.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { confineStdio } from '../../electron/host/sandbox/confine-stdio.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { SandboxSetupError } from '../../electron/host/sandbox/sandbox-types.js';
import { closeConfined, startConfined } from '../support/confined-client.js';
import { removeTempDirs, tempDir, toolText } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const npx = { type: 'stdio' as const, command: 'npx', env: {} };
const userNpmCache = path.join(os.homedir(), '.npm');

afterEach(async () => {
  await closeConfined();
  removeTempDirs();
});

describe.runIf(support.kind === 'bwrap')('npx servers, confined', () => {
  it('runs the project’s own copy (found like npx finds it) read-only, without ~/.npm', async () => {
    const dataDir = tempDir('sbx-data-');
    const server = await startConfined(
      { ...npx, args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'], cwd: repoRoot },
      { serverId: 'everything', roots: [], dataDir, network: false, support },
    );
    expect(server.confined.package?.source).toBe('local');
    expect(server.confined.config.args).not.toContain('npx');
    const echo = await server.client.callTool({ name: 'echo', arguments: { message: 'confined' } });
    expect(toolText(echo)).toContain('confined');
    const mounts = server.confined.mounts;
    expect(mounts.filter((mount) => mount.path.startsWith(userNpmCache))).toEqual([]);
    expect(mounts.filter((mount) => mount.purpose === 'program').every((mount) => !mount.writable)).toBe(true);
  });

  it('installs a package into the app’s folder outside the sandbox, once, and runs it from there', async () => {
    const packDir = tempDir('sbx-pack-');
    await promisify(execFile)('npm', ['pack', '--pack-destination', packDir, path.join(repoRoot, 'tests/fixtures/npx-package')], { cwd: packDir });
    const tarball = fs.readdirSync(packDir).find((name) => name.endsWith('.tgz')) as string;
    const dataDir = tempDir('sbx-data-');
    const config = { ...npx, args: ['-y', `./${tarball}`], cwd: packDir };
    const options = { serverId: 'fixture', roots: [], dataDir, network: false, support };

    const server = await startConfined(config, options);
    expect(server.confined.package?.source).toBe('installed');
    const where = JSON.parse(toolText(await server.client.callTool({ name: 'where', arguments: {} }))) as { file: string; home: string };
    expect(where.file.startsWith(path.join(dataDir, 'sandbox', 'packages'))).toBe(true);
    expect(where.home).toBe(path.join(dataDir, 'sandbox', 'servers', 'fixture', 'home'));
    // Bound read-only: the server cannot change the code that it (or a later start) runs.
    const packageMount = server.confined.mounts
      .filter((mount) => where.file.startsWith(`${mount.path}/`))
      .sort((a, b) => b.path.length - a.path.length)[0];
    expect(packageMount).toMatchObject({ purpose: 'program', writable: false });
    expect(server.confined.mounts.some((mount) => mount.path.startsWith(userNpmCache))).toBe(false);
    await server.close();

    // A second start finds it installed and does not run npm again.
    const marker = path.join(server.confined.package?.packageDir as string, '..', '..', '.installed');
    const installedAt = fs.readFileSync(marker, 'utf8');
    const again = await confineStdio(config, options);
    expect(again.package?.packageDir).toBe(server.confined.package?.packageDir);
    expect(fs.readFileSync(marker, 'utf8')).toBe(installedAt);
  });

  it('refuses an npx line it cannot prepare outside the sandbox, by name', async () => {
    const options = { serverId: 'x', roots: [], dataDir: tempDir('sbx-data-'), network: false, support };
    await expect(confineStdio({ ...npx, args: ['-c', 'echo hi'] }, options)).rejects.toMatchObject({ code: 'npx-unsupported' });
  });
});

describe('uvx servers', () => {
  it('without uv on PATH: a clear uv-missing error, nothing started', async () => {
    const confinable = support.kind === 'bwrap' ? support : { ...support, kind: 'bwrap' as const, launcher: '/usr/bin/bwrap' };
    const error = await confineStdio(
      { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], env: { PATH: '/usr/bin:/bin' } },
      { serverId: 'fetch', roots: [], dataDir: tempDir('sbx-data-'), network: true, support: confinable },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxSetupError);
    expect(error).toMatchObject({ code: 'uv-missing' });
    expect((error as Error).message).toMatch(/uv is not on PATH.*"mcp-server-fetch".*run this server without the sandbox/);
  });
});
