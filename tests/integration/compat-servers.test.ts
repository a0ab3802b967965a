// The compatibility suite: real, popular MCP servers from npm, confined by default (the OS sandbox
// on), each exercised with its own tools on a granted folder through the app (a RootsHost) and
// through `mcp-roots proxy`, and each refused a path outside its grants where it has path tools.
// No mocks: the packages are installed on demand into tests/compat-servers/ (support/compat-servers.ts;
// one with a native build apart, skipped with the reason where it cannot be built); remote ends (mcp-remote's server, the fetched page)
// run on 127.0.0.1. It prints one line per server and route, and a total.
import { Client } from '@modelcontextprotocol/client';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { RootsHost } from '../../electron/host/roots-host.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { addRoot, editRegistry, startHost, stopHosts } from '../support/host-harness.js';
import { closeProxiedClients, proxiedClient, proxyStderr } from '../support/proxied-client.js';
import { COMPAT_DIR, COMPAT_NATIVE_DIR, compatNativeServers, compatServers, type CompatInstall } from '../support/compat-servers.js';
import { EVERYTHING_ENTRY, FILESYSTEM_ENTRY, removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const chromium = '/usr/bin/chromium';

interface World {
  granted: string;
  outside: string;
  repo: string;
  database: string;
  pageUrl: string;
  remoteUrl: string;
}

type Call = (tool: string, args?: Record<string, unknown>) => Promise<string>;

interface CompatServer {
  name: string;
  /** How a host config names it. */
  route: string;
  transport(world: World): StdioTransportConfig;
  /** Browsers: a network namespace of their own (Unix sockets allowed there, see confine-stdio.ts). */
  network?: boolean;
  /** The ports of this computer's loopback it reaches (its page, the remote server): opened for it as a person would (`--allow-local`). */
  allowLocal?(world: World): number[];
  exercise(call: Call, world: World, tag: string): Promise<void>;
  /** The server's answer for a path outside its grants; undefined where it has no path to give. */
  refuse?(call: Call, world: World, tag: string): Promise<string>;
  /** What a person reads in that answer. */
  refusal?: RegExp;
  /** Its refusal says "not found" for a path outside its grants: through the proxy, a note says it is not granted, and how to grant it. */
  notGrantedNote?: boolean;
  /** Installed from tests/compat-servers/native/ (a native build): skipped, with why, where it cannot be built. */
  native?: boolean;
}

const portOf = (url: string) => Number(new URL(url).port);
const node = (entry: string, ...args: string[]): StdioTransportConfig => ({ type: 'stdio', command: process.execPath, args: [entry, ...args], env: {}, cwd: repoRoot });
// Run from the suite's own folder, so npx finds the copy installed there, as it finds a project's.
const npx = (...args: string[]): StdioTransportConfig => ({ type: 'stdio', command: 'npx', args: ['-y', ...args], env: {}, cwd: COMPAT_DIR });
const npxNative = (...args: string[]): StdioTransportConfig => ({ ...npx(...args), cwd: COMPAT_NATIVE_DIR });
const browserFlags = ['--headless', '--executable-path', chromium];

const SERVERS: CompatServer[] = [
  {
    name: 'server-filesystem',
    route: 'node <its folder>/dist/index.js (roots)',
    transport: () => node(FILESYSTEM_ENTRY),
    exercise: async (call, world) => {
      await waitFor(async () => (await call('list_allowed_directories')).includes(world.granted), { what: 'server-filesystem to hold the granted folder' });
      expect(await call('read_text_file', { path: path.join(world.granted, 'hello.txt') })).toBe('hello');
    },
    refuse: (call, world) => call('read_text_file', { path: path.join(world.outside, 'secret.txt') }),
    refusal: /outside allowed directories/,
  },
  {
    name: 'server-memory',
    route: 'npx -y @modelcontextprotocol/server-memory',
    transport: () => npx('@modelcontextprotocol/server-memory'),
    exercise: async (call, _world, tag) => {
      await call('create_entities', { entities: [{ name: `compat-${tag}`, entityType: 'test', observations: ['kept'] }] });
      expect(await call('read_graph')).toContain(`compat-${tag}`);
    },
  },
  {
    name: 'server-everything',
    route: 'node <its folder>/dist/index.js stdio',
    transport: () => node(EVERYTHING_ENTRY, 'stdio'),
    exercise: async (call, world) => {
      expect(await call('echo', { message: 'confined' })).toContain('confined');
      await waitFor(async () => (await call('get-roots-list')).includes(world.granted), { what: 'server-everything to hold the granted folder' });
    },
  },
  {
    name: 'server-sequential-thinking',
    route: 'npx -y @modelcontextprotocol/server-sequential-thinking',
    transport: () => npx('@modelcontextprotocol/server-sequential-thinking'),
    exercise: async (call) => {
      expect(await call('sequentialthinking', { thought: 'one', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false })).toContain('"thoughtNumber": 1');
    },
  },
  {
    name: '@cyanheads/git-mcp-server',
    route: 'npx -y @cyanheads/git-mcp-server',
    transport: () => npx('@cyanheads/git-mcp-server'),
    exercise: async (call, world) => {
      expect(await call('git_log', { path: world.repo })).toContain('"subject": "first"');
    },
    refuse: (call, world) => call('git_status', { path: world.outside }),
    refusal: /does not exist/,
  },
  {
    name: 'mcp-sqlite',
    route: 'npx -y mcp-sqlite <granted>/data.sqlite',
    transport: (world) => npxNative('mcp-sqlite', world.database),
    native: true,
    // The server makes the database file in the granted folder, and the table, with its own tools.
    exercise: async (call, _world, tag) => {
      await call('query', { sql: 'create table if not exists t(x text)' });
      await call('query', { sql: `insert into t values('row-${tag}')` });
      expect(await call('query', { sql: 'select x from t' })).toContain(`row-${tag}`);
    },
    refuse: (call, world) => call('query', { sql: `ATTACH DATABASE '${path.join(world.outside, 'other.sqlite')}' AS other` }),
    refusal: /unable to open database/,
  },
  {
    name: 'mcp-fetch-server',
    route: 'npx -y mcp-fetch-server',
    transport: () => npx('mcp-fetch-server'),
    // Its own SSRF guard refuses 127.0.0.1 before any request: the only page it can be given here.
    exercise: async (call, world) => {
      expect(await call('fetch_txt', { url: world.pageUrl })).toMatch(/blocked request to private address "127.0.0.1"/);
    },
  },
  {
    name: '@playwright/mcp',
    route: 'npx -y @playwright/mcp --headless --executable-path /usr/bin/chromium (network on)',
    transport: () => npx('@playwright/mcp', ...browserFlags, '--no-sandbox'),
    allowLocal: (world) => [portOf(world.pageUrl)],
    exercise: async (call, world, tag) => {
      // A page on this machine's 127.0.0.1: reached through pasta at the one port opened for it.
      expect(await call('browser_navigate', { url: world.pageUrl })).toContain('Hello compat');
      const shot = path.join(world.granted, `playwright-${tag}.png`);
      await call('browser_take_screenshot', { filename: shot });
      await waitFor(() => fs.existsSync(shot) && fs.statSync(shot).size > 0, { what: 'the screenshot in the granted folder' });
    },
    refuse: (call, world, tag) => call('browser_take_screenshot', { filename: path.join(world.outside, `playwright-${tag}.png`) }),
    refusal: /ENOENT|outside|not allowed/,
  },
  {
    name: 'chrome-devtools-mcp',
    route: 'npx -y chrome-devtools-mcp --headless --isolated --executable-path /usr/bin/chromium (network on)',
    transport: () => npx('chrome-devtools-mcp', ...browserFlags, '--isolated', '--chrome-arg=--no-sandbox', '--no-usage-statistics', '--no-performance-crux'),
    allowLocal: (world) => [portOf(world.pageUrl)],
    exercise: async (call, world, tag) => {
      expect(await call('new_page', { url: world.pageUrl })).toContain(`2: Hello compat (${world.pageUrl})`);
      const shot = path.join(world.granted, `devtools-${tag}.png`);
      expect(await call('take_screenshot', { pageId: 2, filePath: shot })).toContain('Saved screenshot');
      expect(fs.statSync(shot).size).toBeGreaterThan(0);
    },
    refuse: (call, world, tag) => call('take_screenshot', { pageId: 2, filePath: path.join(world.outside, `devtools-${tag}.png`) }),
    refusal: /not within any of the configured workspace roots|ENOENT/,
  },
  {
    name: '@wonderwhy-er/desktop-commander',
    route: 'npx -y @wonderwhy-er/desktop-commander',
    transport: () => npx('@wonderwhy-er/desktop-commander'),
    exercise: async (call, world, tag) => {
      expect(await call('read_file', { path: path.join(world.granted, 'hello.txt') })).toContain('hello');
      expect(await call('write_file', { path: path.join(world.granted, `dc-${tag}.txt`), content: 'written' })).toContain('Successfully wrote');
      expect(fs.readFileSync(path.join(world.granted, `dc-${tag}.txt`), 'utf8')).toBe('written');
    },
    refuse: (call, world) => call('read_file', { path: path.join(world.outside, 'secret.txt') }),
    refusal: /ENOENT: no such file or directory/,
    notGrantedNote: true,
  },
  {
    name: 'mcp-remote',
    route: 'npx -y mcp-remote http://127.0.0.1:PORT/mcp --allow-http',
    transport: (world) => npx('mcp-remote', world.remoteUrl, '--allow-http'),
    // The model case of a port opened for one server: the local server it bridges to.
    allowLocal: (world) => [portOf(world.remoteUrl)],
    exercise: async (call) => {
      expect(await call('echo', { message: 'through mcp-remote' })).toContain('through mcp-remote');
    },
  },
];

const results: { server: string; route: string; outcome: string }[] = [];
let world: World;
const closers: (() => void)[] = [];

async function startRemote(): Promise<string> {
  const { spawn } = await import('node:child_process');
  const free = http.createServer();
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
  const freePort = (free.address() as AddressInfo).port;
  await new Promise<void>((resolve) => free.close(() => resolve()));
  const child = spawn(process.execPath, [EVERYTHING_ENTRY, 'streamableHttp'], { cwd: repoRoot, env: { ...process.env, PORT: String(freePort) }, stdio: ['ignore', 'pipe', 'pipe'] });
  closers.push(() => child.kill());
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await waitFor(() => /listening on port (\d+)/.exec(output)?.[1], { what: 'server-everything over HTTP to listen' });
  return `http://127.0.0.1:${port}/mcp`;
}

let native: CompatInstall;

beforeAll(async () => {
  // The servers, installed on demand (a first run downloads them from the npm registry).
  await compatServers();
  native = await compatNativeServers();
  if (!native.ready) console.log(`compat: mcp-sqlite is skipped on this machine: ${native.reason}`);
  const granted = tempDir('compat-granted-');
  // Outside the grants and outside /tmp (inside, /tmp is the server's own private temp folder).
  const outside = fs.mkdtempSync(path.join(os.homedir(), '.mcp-roots-compat-outside-'));
  closers.push(() => fs.rmSync(outside, { recursive: true, force: true }));
  fs.writeFileSync(path.join(granted, 'hello.txt'), 'hello');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'not granted');
  fs.writeFileSync(path.join(outside, 'other.sqlite'), '');
  const repo = path.join(granted, 'repo');
  fs.mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  fs.writeFileSync(path.join(repo, 'a.txt'), 'a');
  execFileSync('git', ['-C', repo, 'add', '.']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=compat', '-c', 'user.email=compat@example.invalid', 'commit', '-qm', 'first']);
  const database = path.join(granted, 'data.sqlite');
  const page = http.createServer((_request, response) => response.end('<html><head><title>Hello compat</title></head><body><h1>Hello compat</h1></body></html>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  closers.push(() => page.close());
  world = { granted, outside, repo, database, pageUrl: `http://127.0.0.1:${(page.address() as AddressInfo).port}/`, remoteUrl: await startRemote() };
}, 900_000);

/** Skips a native server's case where it could not be built here, saying why. */
function skipUnbuilt(server: CompatServer, route: 'app' | 'proxy', skip: (note?: string) => void): void {
  if (!server.native || native.ready) return;
  results.push({ server: server.name, route, outcome: 'skipped' });
  skip(native.reason);
}

afterAll(async () => {
  await closeProxiedClients();
  await stopHosts();
  for (const close of closers.splice(0)) close();
  removeTempDirs();
  const lines = results.sort((a, b) => a.server.localeCompare(b.server) || a.route.localeCompare(b.route)).map((r) => `compat: ${r.outcome.padEnd(15)} ${r.server} (${r.route})`);
  const works = results.filter((r) => r.outcome === 'works confined').length;
  console.log([...lines, `compat: ${works} of ${results.length} server routes work confined`].join('\n'));
});

async function exerciseOne(server: CompatServer, route: 'app' | 'proxy', call: Call): Promise<void> {
  try {
    await server.exercise(call, world, route);
    if (server.refuse) {
      const refusal = await server.refuse(call, world, route);
      expect(refusal).toMatch(server.refusal as RegExp);
      if (server.notGrantedNote && route === 'proxy') {
        // The server's own words stay; the proxy's note beside them names the path and the fix.
        expect(refusal).toContain(`MCP Roots Manager: ${path.join(world.outside, 'secret.txt')} is not granted to ${server.name}`);
        expect(refusal).toContain(`To allow it: mcp-roots roots add ${world.outside} && mcp-roots grant ${server.name} ${world.outside} --read-only`);
      }
      expect(fs.readdirSync(world.outside).sort(), 'nothing written outside the grants').toEqual(['other.sqlite', 'secret.txt']);
    }
    results.push({ server: server.name, route, outcome: 'works confined' });
  } catch (error) {
    results.push({ server: server.name, route, outcome: 'FAILED' });
    throw error;
  }
}

describe.runIf(support.kind === 'bwrap' && fs.existsSync(chromium))('popular MCP servers, confined by default', () => {
  describe('through the app', () => {
    let host: RootsHost;
    let rootId: string;
    beforeAll(async () => {
      host = await startHost();
      rootId = await addRoot(host, world.granted);
    });

    it.concurrent.for(SERVERS)('$name', { timeout: 180_000 }, async (server, { skip }) => {
      skipUnbuilt(server, 'app', skip);
      const record = await host.addServer({ name: server.name, transport: server.transport(world), enabled: false, sharing: true, network: server.network ?? true, allowLocal: server.allowLocal?.(world) });
      await host.setGrants([record.id], [rootId], true, 'read-write');
      await host.setEnabled(record.id, true);
      const view = () => host.getState().servers.find((entry) => entry.id === record.id);
      await waitFor(() => view()?.status.state === 'connected' && view()?.status.confinement?.selfCheck, {
        what: `${server.name} to run confined`,
        timeoutMs: 90_000,
        explain: () => JSON.stringify({ status: view()?.status, activity: host.activity(record.id).slice(-5) }),
      });
      expect(view()?.status.confinement).toMatchObject({ state: 'enforced', selfCheck: { verified: true } });
      await exerciseOne(server, 'app', async (tool, args = {}) => toolText(await host.callTool(record.id, tool, args)));
    });
  });

  describe('through mcp-roots proxy', () => {
    let configDir: string;
    beforeAll(async () => {
      configDir = tempDir('compat-proxy-config-');
      await editRegistry(configDir, async (editor) => {
        const { added } = await editor.addRoots([world.granted]);
        for (const server of SERVERS) {
          const record = await editor.addServer({ name: server.name, transport: server.transport(world), enabled: true, sharing: true, sandbox: true, network: server.network ?? true, allowLocal: server.allowLocal?.(world), askForFolders: true });
          await editor.setGrants([record.id], [added[0]?.id as string], true, 'read-write');
        }
      });
    });

    it.concurrent.for(SERVERS)('$name', { timeout: 180_000 }, async (server, { skip }) => {
      skipUnbuilt(server, 'proxy', skip);
      const client: Client = await proxiedClient(configDir, server.name, { era: 'legacy' });
      const call: Call = async (tool, args = {}) => {
        try {
          return toolText(await client.callTool({ name: tool, arguments: args }));
        } catch (error) {
          throw new Error(`${(error as Error).message}; proxy stderr: ${proxyStderr(client).slice(-2000)}`, { cause: error });
        }
      };
      await exerciseOne(server, 'proxy', call);
    });
  });
});
