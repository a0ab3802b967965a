// Python launch paths, confined: a pyenv shim, a venv console script, `python -m`, and uvx, each
// a faithful fixture of the real file layout (tests/fixtures/python/layouts.ts; PyPI is not
// reachable here) running a small stdio MCP server in Python. Each must start under the sandbox,
// serve its tool on a granted folder, and be refused a folder outside its grants.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packageFolderName } from '../../electron/host/sandbox/package-launch.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { closeConfined, startConfined } from '../support/confined-client.js';
import { compatServers } from '../support/compat-servers.js';
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
    // A tool folder per package (package-launch.ts), the venv uv made for the tool inside it.
    interpreter: () => path.join('sandbox', 'uv-tools', packageFolderName('folder-server'), 'folder-server', 'bin', 'python3'),
  },
];

afterAll(async () => {
  await closeConfined();
  removeTempDirs();
  const works = results.filter((line) => line.startsWith('works')).length;
  const run = results.filter((line) => !line.startsWith('skipped')).length;
  console.log([...results.map((line) => `compat-python: ${line}`), `compat-python: ${works} of ${run} launches work confined (Python: fixtures only)`].join('\n'));
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

// As an unprivileged user (the app run by a normal person), in a child process under setpriv, as the
// hostile-server tests do: tests/fixtures/compat-world.ts starts each server through the sandbox
// module and reports. The npm packages are readable by nobody here (/work/main/node_modules is 755).
const isRoot = process.getuid?.() === 0;
const repoRoot = path.resolve(import.meta.dirname, '../..');
const AS_NOBODY = [
  'python pyenv shim',
  'python venv console script',
  'python -m',
  'python uvx',
  'server-filesystem',
  '@playwright/mcp (network on)',
  '@playwright/mcp with its own sandbox (own sandboxes on)',
  '@playwright/mcp with its own sandbox (own sandboxes off)',
];

interface NobodyFacts {
  uid: number;
  pasta: string | null;
  pastaReason: string | null;
  outcomes: Record<string, string>;
}

describe.runIf(support.kind === 'bwrap' && isRoot && fs.existsSync('/usr/bin/python3'))('as an unprivileged user', () => {
  let facts: NobodyFacts;
  const world = async () => {
    if (facts) return facts;
    // @playwright/mcp comes from the suite's own folder, installed on demand.
    await compatServers();
    const base = tempDir('compat-nobody-');
    fs.chmodSync(base, 0o777);
    const { stdout } = await promisify(execFile)('setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', process.execPath, '--import', 'tsx', 'tests/fixtures/compat-world.ts', base, ...AS_NOBODY], { cwd: repoRoot, timeout: 240_000 });
    facts = JSON.parse(stdout.trim().split('\n').at(-1) as string) as NobodyFacts;
    for (const [name, outcome] of Object.entries(facts.outcomes)) {
      // A browser with the network on needs pasta; where it does not work for this user the case is skipped below, and said so here.
      const label = outcome === 'works confined' ? 'works confined ' : name.includes('network on') && !facts.pasta ? 'skipped (no pasta for this user)' : 'FAILED         ';
      results.push(`${label} ${name}, as nobody`);
    }
    return facts;
  };

  it('Python launch paths and server-filesystem work confined, as nobody', async () => {
    const { uid, outcomes } = await world();
    expect(uid).not.toBe(0);
    for (const name of AS_NOBODY.filter((entry) => !entry.startsWith('@playwright'))) expect(outcomes[name], name).toBe('works confined');
  }, 300_000);

  it('a browser configured as its README says (no --no-sandbox), as nobody: its own sandbox works where allowed, and says why where not', async () => {
    const { outcomes } = await world();
    expect(outcomes['@playwright/mcp with its own sandbox (own sandboxes on)']).toBe('works confined');
    // "works confined" here means the answer was Chromium's own "No usable sandbox".
    expect(outcomes['@playwright/mcp with its own sandbox (own sandboxes off)']).toBe('works confined');
  }, 300_000);

  it('a browser with the network on, as nobody, where pasta works for that user', async (context) => {
    const { pasta, pastaReason, outcomes } = await world();
    // Outside the app: pasta needs /dev/net/tun, which is root's only (0600) on this machine, so an
    // unprivileged user's network-on server shares the host's network and Unix sockets are refused.
    if (!pasta) context.skip(`pasta does not work for an unprivileged user on this machine (${pastaReason}); the self-check's detail says so and a browser needs its network off here`);
    expect(outcomes['@playwright/mcp (network on)']).toBe('works confined');
  }, 300_000);
});
