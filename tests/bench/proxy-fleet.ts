// Section 10's set-up: one registry shared by many `mcp-roots proxy` processes, each launched the way
// a host launches it (a stdio child running `node bin/mcp-roots.js proxy --config-dir DIR SERVER`,
// what use-with writes; the compiled CLI; a host without the roots capability), each running its own
// real server (tests/fixtures/roots-stamp-server.mjs). That server stamps every roots answer on its
// stderr, which the proxy passes on to the host: the bench learns when a server had its folders
// from the server itself, without polling it.
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { RegistryEditor } from '../../electron/host/registry/registry-commands.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { makeFolders, repoRoot } from './bench-env.js';

const run = promisify(execFile);
export const START_TIMEOUT_MS = 180_000;
export const GRANT_TIMEOUT_MS = 60_000;
export const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;
/** What bin/mcp-roots.js runs: the bench measures the build, not the sources. */
export const PROXY_MAIN = path.join(repoRoot, 'dist/electron/cli/main.js');
const CLI = path.join(repoRoot, 'bin/mcp-roots.js');

export const stampServer: StdioTransportConfig = {
  type: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures/roots-stamp-server.mjs')],
  env: {},
};

export interface FleetServer {
  name: string;
  id: string;
  /** The folders granted to it from the start. */
  folders: string[];
}

export interface FleetRegistry {
  configDir: string;
  servers: FleetServer[];
  /** Roots granted to nobody, handed out one by one by the grant measurements. */
  spare: string[];
  bytes: number;
}

/**
 * A registry of `rootCount` roots and `serverCount` servers, each granted `perServer` folders of its
 * own; `spareCount` roots are kept for grants; the rest are granted to nobody.
 */
export async function buildFleetRegistry(
  configDir: string,
  rootCount: number,
  serverCount: number,
  { perServer = 2, spareCount = 0, sandbox = true }: { perServer?: number; spareCount?: number; sandbox?: boolean } = {},
): Promise<FleetRegistry> {
  const folders = makeFolders(rootCount);
  const editor = await RegistryEditor.open(configDir);
  try {
    const { added, failed } = await editor.addRoots(folders);
    if (failed.length > 0) throw new Error(`could not add ${failed.length} roots: ${failed[0]?.message}`);
    const idOf = new Map(added.map((root) => [root.canonicalPath, root.id]));
    const servers: FleetServer[] = [];
    for (let i = 0; i < serverCount; i++) {
      const name = `fleet-${i + 1}`;
      const record = await editor.addServer({ name, transport: stampServer, enabled: true, sharing: true, sandbox });
      const own = folders.slice(i * perServer, (i + 1) * perServer);
      await editor.setGrants([record.id], own.map((folder) => idOf.get(folder) as string), true);
      servers.push({ name, id: record.id, folders: own });
    }
    const spare = folders.slice(serverCount * perServer, serverCount * perServer + spareCount);
    return { configDir, servers, spare, bytes: fs.statSync(path.join(configDir, 'config.json')).size };
  } finally {
    await editor.close();
  }
}

/** Edits the registry as another process would (here: this one, through its own one-writer queue). */
export async function editFleet(configDir: string, edit: (editor: RegistryEditor) => Promise<unknown>): Promise<void> {
  const editor = await RegistryEditor.open(configDir);
  try {
    await edit(editor);
  } finally {
    await editor.close();
  }
}

/** `mcp-roots grant SERVER FOLDER` in its own process; resolves with when the new file was put in place. */
export async function cliGrant(configDir: string, server: string, folder: string): Promise<number> {
  await run(process.execPath, [CLI, '--config-dir', configDir, 'grant', server, folder], { cwd: repoRoot });
  // The rename that replaced the file set its ctime: the moment readers could see the new version.
  return fs.statSync(path.join(configDir, 'config.json')).ctimeMs;
}

export interface Stamp {
  at: number;
  uris: string[];
}

export const uriOf = (folder: string): string => pathToFileURL(folder).href;

/** A host without roots that launched `mcp-roots proxy SERVER`, and what its server stamped. */
export class ProxiedHost extends EventEmitter<{ stamp: [Stamp] }> {
  readonly stamps: Stamp[] = [];
  /** The proxy's own log lines (and the server's other stderr), the last few, to explain a failure. */
  readonly tail: string[] = [];
  readonly client = new Client({ name: 'bench-host', version: '1.0.0' }, { capabilities: {} });
  private readonly transport: StdioClientTransport;
  /** The session ended (the proxy exited or closed stdout). */
  closed = false;
  launchedAt = 0;

  constructor(
    configDir: string,
    readonly server: FleetServer,
    { marks = false }: { marks?: boolean } = {},
  ) {
    super();
    this.setMaxListeners(50);
    this.transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'proxy', '--config-dir', configDir, server.name],
      cwd: repoRoot,
      stderr: 'pipe',
      // The SDK's default environment, with the proxy's timing marks asked for (start-marks.ts).
      ...(marks ? { env: { ...getDefaultEnvironment(), MCP_ROOTS_START_MARKS: '1' } } : {}),
    });
    const lines = readline.createInterface({ input: this.transport.stderr as Readable });
    lines.on('line', (line) => this.onLine(line));
    this.client.onclose = () => {
      this.closed = true;
    };
  }

  get pid(): number {
    return this.transport.pid as number;
  }

  /** Spawns the proxy and completes the MCP handshake through it. */
  async launch(): Promise<void> {
    this.launchedAt = Date.now();
    await this.client.connect(this.transport);
  }

  /** The first stamp at or after `since` that `accept` takes, waiting for it if need be. */
  stampWhere(accept: (stamp: Stamp) => boolean, since: number, timeoutMs: number): Promise<Stamp> {
    const found = this.stamps.find((stamp) => stamp.at >= since && accept(stamp));
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('stamp', onStamp);
        reject(new Error(`${this.server.name}: no matching roots stamp within ${timeoutMs} ms; proxy said: ${this.tail.slice(-3).join(' | ') || '(nothing)'}`));
      }, timeoutMs);
      const onStamp = (stamp: Stamp) => {
        if (stamp.at < since || !accept(stamp)) return;
        clearTimeout(timer);
        this.off('stamp', onStamp);
        resolve(stamp);
      };
      this.on('stamp', onStamp);
    });
  }

  /** The server had exactly these folders (at or after `since`). */
  hasFolders(folders: readonly string[], since: number, timeoutMs: number): Promise<Stamp> {
    const wanted = folders.map(uriOf).sort().join('\n');
    return this.stampWhere((stamp) => [...stamp.uris].sort().join('\n') === wanted, since, timeoutMs);
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }

  private onLine(line: string): void {
    const match = /^roots-stamp (\d+) (.*)$/.exec(line);
    if (!match) {
      this.tail.push(line);
      if (this.tail.length > 20) this.tail.shift();
      return;
    }
    const stamp = { at: Number(match[1]), uris: JSON.parse(match[2] as string) as string[] };
    this.stamps.push(stamp);
    this.emit('stamp', stamp);
  }
}

export interface FleetStart {
  hosts: ProxiedHost[];
  /** Launch -> the server had its folders, ms, for each proxy that made it. */
  startMs: number[];
  failures: { server: string; why: string }[];
}

/** Launches one proxy per server, all at once, and waits until each server has its folders. */
export async function startFleet(registry: FleetRegistry, servers: readonly FleetServer[], timeoutMs: number, options: { marks?: boolean } = {}): Promise<FleetStart> {
  const hosts = servers.map((server) => new ProxiedHost(registry.configDir, server, options));
  const outcomes = await Promise.allSettled(
    hosts.map(async (host) => {
      await host.launch();
      const stamp = await host.hasFolders(host.server.folders, 0, timeoutMs);
      return stamp.at - host.launchedAt;
    }),
  );
  const startMs: number[] = [];
  const failures: FleetStart['failures'] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') startMs.push(outcome.value);
    else failures.push({ server: servers[i]?.name ?? '?', why: `${(outcome.reason as Error).message} [${hosts[i]?.tail.slice(-2).join(' | ')}]` });
  });
  return { hosts, startMs, failures };
}
