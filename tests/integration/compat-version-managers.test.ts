// Node servers launched through version managers, confined: an asdf shim (bash asdf and Go asdf),
// a volta shim, and nvm's node and npx named by their full paths, each a faithful fixture of the
// real layout in a temporary HOME (tests/fixtures/version-managers.ts; the managers' own programs
// are stand-ins). Each must start under the sandbox on the installed node (not the system's),
// read a granted folder, and be refused the rest of HOME, the manager's caches included.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { closeConfined, startConfined } from '../support/confined-client.js';
import { removeTempDirs, tempDir } from '../support/index.js';
import { makeAsdf, makeNvm, makeVolta } from '../fixtures/version-managers.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const server = path.join(repoRoot, 'tests/fixtures/any-path-server.mjs');
const systemPath = '/usr/local/bin:/usr/bin:/bin';
const results: string[] = [];

// Each launch gets a HOME of its own: the managers find their roots (and asdf its global version) from it.
const realHome = process.env.HOME;
let home: string;
afterEach(async () => {
  await closeConfined();
  process.env.HOME = realHome;
});
afterAll(() => {
  removeTempDirs();
  const works = results.filter((line) => line.startsWith('works')).length;
  console.log([...results.map((line) => `compat-version-managers: ${line}`), `compat-version-managers: ${works} of ${results.length} launches work confined (fixtures only)`].join('\n'));
});

interface LaunchPath {
  name: string;
  /** Builds the layout in `home`; returns the server's transport and the node it must run on. */
  make(home: string): Promise<{ transport: StdioTransportConfig; node: string; unbound: string[] }> | { transport: StdioTransportConfig; node: string; unbound: string[] };
}

const LAUNCH_PATHS: LaunchPath[] = [
  {
    name: 'asdf 0.15 shim (shims/node → ~/.asdf/bin/asdf exec → installs/nodejs/X/bin/node), version from ~/.tool-versions',
    make: (dir) => {
      const asdf = makeAsdf(dir, 'bash');
      const transport = { type: 'stdio' as const, command: asdf.shim, args: [server], env: { PATH: systemPath } };
      return { transport, node: asdf.node, unbound: [path.join(dir, '.asdf', 'downloads')] };
    },
  },
  {
    name: 'asdf 0.16 shim (shims/node → asdf exec, asdf from PATH)',
    make: (dir) => {
      const asdf = makeAsdf(dir, 'go');
      const transport = { type: 'stdio' as const, command: asdf.shim, args: [server], env: { PATH: `${asdf.bin}:${systemPath}` } };
      return { transport, node: asdf.node, unbound: [path.join(dir, '.asdf', 'downloads')] };
    },
  },
  {
    name: 'volta shim (~/.volta/bin/node → volta-shim → tools/image/node/X/bin/node)',
    make: (dir) => {
      const volta = makeVolta(dir);
      const transport = { type: 'stdio' as const, command: volta.shim, args: [server], env: { PATH: systemPath } };
      return { transport, node: volta.node, unbound: [path.join(dir, '.volta', 'cache'), path.join(dir, '.volta', 'tmp')] };
    },
  },
  {
    name: 'nvm node by its full path (~/.nvm/versions/node/vX/bin/node)',
    make: (dir) => {
      const nvm = makeNvm(dir);
      return { transport: { type: 'stdio', command: nvm.node, args: [server], env: { PATH: systemPath } }, node: nvm.node, unbound: [] };
    },
  },
  {
    name: 'nvm npx by its full path, nvm not on PATH (a GUI app): its own node, not the system one',
    make: async (dir) => {
      const nvm = makeNvm(dir);
      const packDir = tempDir('compat-nvm-pack-');
      await promisify(execFile)('npm', ['pack', '--pack-destination', packDir, path.join(repoRoot, 'tests/fixtures/npx-package')], { cwd: packDir });
      const tarball = fs.readdirSync(packDir).find((name) => name.endsWith('.tgz')) as string;
      const transport = { type: 'stdio' as const, command: path.join(nvm.bin, 'npx'), args: ['-y', `./${tarball}`], cwd: packDir, env: { PATH: systemPath } };
      return { transport, node: nvm.node, unbound: [] };
    },
  },
];

describe.runIf(support.kind === 'bwrap')('Node version managers, confined (fixtures of their layouts)', () => {
  it.each(LAUNCH_PATHS)('$name', async (launch) => {
    try {
      home = tempDir('compat-vm-home-');
      process.env.HOME = home;
      const granted = tempDir('compat-vm-granted-');
      fs.writeFileSync(path.join(granted, 'hello.txt'), 'hello from a managed node');
      fs.writeFileSync(path.join(home, 'secret.txt'), 'not granted');
      const { transport, node, unbound } = await launch.make(home);
      const dataDir = tempDir('compat-vm-data-');
      const started = await startConfined(transport, { serverId: 'managed', roots: [{ path: granted, mode: 'read-only' }], dataDir, network: false, support });
      const check = await started.confined.selfCheck(started.pid);
      expect(check, check.detail).toMatchObject({ verified: true });
      const npxServer = transport.command.endsWith('npx');
      if (npxServer) {
        // The npx fixture has one tool: where it runs from, and on which node.
        // The npx fixture's one tool says where it runs from; bwrap's command line says on which node.
        const where = JSON.parse(await started.call('where')) as { home: string; file: string };
        const argv = started.confined.config.args;
        expect(argv[argv.lastIndexOf('--') + 1]).toBe(node);
        expect(where.home).not.toBe(home);
        expect(where.file).toContain(path.join(dataDir, 'sandbox', 'packages'));
      } else {
        const env = JSON.parse(await started.call('env')) as { execPath: string; HOME: string };
        expect(env.execPath).toBe(node);
        expect(env.HOME).not.toBe(home);
        expect(await started.call('read', { path: path.join(granted, 'hello.txt') })).toBe('hello from a managed node');
        expect(await started.call('read', { path: path.join(home, 'secret.txt') })).toMatch(/^ERROR ENOENT/);
        for (const cache of unbound) expect(await started.call('list', { path: cache }), cache).toMatch(/^ERROR ENOENT/);
        // Nothing of the manager is writable.
        expect(await started.call('write', { path: path.join(path.dirname(node), 'planted'), content: 'x' })).toMatch(/^ERROR (EROFS|EACCES)/);
      }
      results.push(`works confined  ${launch.name}`);
    } catch (error) {
      results.push(`FAILED          ${launch.name}`);
      throw error;
    }
  }, 120_000);

  it("without a global version, asdf says so in its own words: nothing of HOME is bound in its place", async () => {
    home = tempDir('compat-vm-home-');
    process.env.HOME = home;
    const asdf = makeAsdf(home, 'bash');
    fs.rmSync(path.join(home, '.tool-versions'));
    const transport = { type: 'stdio' as const, command: asdf.shim, args: [server], env: { PATH: systemPath } };
    await expect(startConfined(transport, { serverId: 'managed', roots: [], dataDir: tempDir('compat-vm-data-'), network: false, support })).rejects.toThrow(/No version is set for command node/);
  }, 60_000);
});
