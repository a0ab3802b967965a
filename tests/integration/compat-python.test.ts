// Python launch paths, confined: a pyenv shim, a venv console script, `python -m`, and uvx, each
// a faithful fixture of the real file layout (tests/fixtures/python/layouts.ts; PyPI is not
// reachable here) running a small stdio MCP server in Python. Each must start under the sandbox,
// serve its tool on a granted folder, and be refused a folder outside its grants.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { closeConfined, startConfined } from '../support/confined-client.js';
import { removeTempDirs, tempDir } from '../support/index.js';
import { makePyenv, makeUv, makeVenv, PYTHON_SERVER } from '../fixtures/python/layouts.js';

const support = await probeSandbox();
const results: string[] = [];

interface LaunchPath {
  name: string;
  transport(fixtures: string): StdioTransportConfig;
  /** The interpreter the server must report running on (its launcher really ran). */
  interpreter(fixtures: string): string;
}

const systemPath = '/usr/local/bin:/usr/bin:/bin';

const LAUNCH_PATHS: LaunchPath[] = [
  {
    name: 'pyenv shim (shims/python3 → libexec/pyenv → versions/X/bin/python3)',
    transport: (fixtures) => ({ type: 'stdio', command: makePyenv(path.join(fixtures, '.pyenv')), args: [PYTHON_SERVER], env: {} }),
    interpreter: (fixtures) => path.join(fixtures, '.pyenv', 'versions', '3.99.0', 'bin', 'python3'),
  },
  {
    name: 'venv console script (shebang to the venv python, pyvenv.cfg home)',
    transport: (fixtures) => ({ type: 'stdio', command: makeVenv(path.join(fixtures, 'venv')).script, args: [], env: {} }),
    interpreter: (fixtures) => path.join(fixtures, 'venv', 'bin', 'python3'),
  },
  {
    name: 'python -m folder_server (the venv python)',
    transport: (fixtures) => ({ type: 'stdio', command: makeVenv(path.join(fixtures, 'venv-m')).python, args: ['-m', 'folder_server'], env: {} }),
    interpreter: (fixtures) => path.join(fixtures, 'venv-m', 'bin', 'python3'),
  },
  {
    name: 'uvx folder-server (stand-in uv: its tool venv and bin link)',
    transport: (fixtures) => {
      makeUv(path.join(fixtures, 'uv-bin'));
      return { type: 'stdio', command: 'uvx', args: ['folder-server'], env: { PATH: `${path.join(fixtures, 'uv-bin')}:${systemPath}` } };
    },
    // Installed by the app outside the sandbox, into its data folder (package-launch.ts).
    interpreter: () => path.join('sandbox', 'uv-tools', 'folder-server', 'bin', 'python3'),
  },
];

afterAll(async () => {
  await closeConfined();
  removeTempDirs();
  const works = results.filter((line) => line.startsWith('works')).length;
  console.log([...results.map((line) => `compat-python: ${line}`), `compat-python: ${works} of ${LAUNCH_PATHS.length} Python launch paths work confined (fixtures only)`].join('\n'));
});

describe.runIf(support.kind === 'bwrap' && fs.existsSync('/usr/bin/python3'))('Python launch paths, confined (fixtures of their layouts)', () => {
  it.each(LAUNCH_PATHS)('$name', async (launch) => {
    try {
      const fixtures = tempDir('compat-python-');
      const granted = tempDir('compat-python-granted-');
      fs.writeFileSync(path.join(granted, 'hello.txt'), 'hello from python');
      // Outside the grants and outside /tmp (inside, /tmp is the server's own).
      const outside = fs.mkdtempSync(path.join(os.homedir(), '.mcp-roots-python-outside-'));
      fs.writeFileSync(path.join(outside, 'secret.txt'), 'not granted');
      try {
        const dataDir = tempDir('compat-python-data-');
        const server = await startConfined(launch.transport(fixtures), { serverId: 'python', roots: [{ path: granted, mode: 'read-only' }], dataDir, network: false, support });
        const check = await server.confined.selfCheck(server.pid);
        expect(check, check.detail).toMatchObject({ verified: true });
        expect(JSON.parse(await server.call('whoami')).executable).toContain(launch.interpreter(fixtures));
        expect(await server.call('list_folder', { path: granted })).toBe('hello.txt');
        expect(await server.call('read_text', { path: path.join(granted, 'hello.txt') })).toBe('hello from python');
        expect(await server.call('read_text', { path: path.join(outside, 'secret.txt') })).toMatch(/No such file or directory/);
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
      results.push(`works confined  ${launch.name}`);
    } catch (error) {
      results.push(`FAILED          ${launch.name}`);
      throw error;
    }
  }, 60_000);
});
