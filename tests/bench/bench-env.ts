// Shared set-up for benchmark sections: temp dirs, hosts, real servers, and instrumentation that
// observes (never replaces) what goes onto each stdio transport.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RootsHost, type RootsHostOptions } from '../../electron/host/roots-host.js';
import { waitFor } from '../support/wait-for.js';
import type { StdioTransportConfig } from '../../shared/domain.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const timingServer: StdioTransportConfig = {
  type: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures/roots-timing-server.mjs')],
  env: {},
};

const dirs: string[] = [];
export function benchDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `bench-${prefix}-`)));
  dirs.push(dir);
  return dir;
}
export function cleanBenchDirs(): void {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export function makeFolders(count: number): string[] {
  const base = benchDir('folders');
  return Array.from({ length: count }, (_, i) => {
    const folder = path.join(base, `project-${i}`);
    fs.mkdirSync(folder);
    return folder;
  });
}

/** The tests' one waitFor, polling often: a benchmark waits for facts too. */
export async function waitUntil(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  await waitFor(check, { timeoutMs, intervalMs: 5, what: 'a benchmark condition' });
}

/** Records when a roots/list_changed leaves for each stdio transport (performance.now()). */
export const listChangedWrites: number[] = [];
/** Host-side roots/list answer times: request read off the pipe -> response handed to the pipe (ms). */
export const rootsAnswerTimes: number[] = [];
const rootsRequestArrivals = new Map<unknown, number>();

const originalSend = StdioClientTransport.prototype.send;
StdioClientTransport.prototype.send = function send(this: StdioClientTransport, message) {
  if ('method' in message && message.method === 'notifications/roots/list_changed') {
    listChangedWrites.push(performance.now());
  }
  if ('result' in message && rootsRequestArrivals.has(message.id)) {
    rootsAnswerTimes.push(performance.now() - (rootsRequestArrivals.get(message.id) as number));
    rootsRequestArrivals.delete(message.id);
  }
  return originalSend.call(this, message);
};

// The SDK's read loop, observed: note when each roots/list request comes off the pipe. (Mirrors
// StdioClientTransport.processReadBuffer in @modelcontextprotocol/client 2.4; bench-only.)
type ReadLoop = { _readBuffer: { readMessage(): unknown }; onmessage?: (m: unknown) => void; onerror?: (e: unknown) => void };
(StdioClientTransport.prototype as unknown as { processReadBuffer(this: ReadLoop): void }).processReadBuffer = function processReadBuffer(
  this: ReadLoop,
) {
  for (;;) {
    try {
      const message = this._readBuffer.readMessage() as { method?: string; id?: unknown } | null;
      if (message === null) break;
      if (message.method === 'roots/list') rootsRequestArrivals.set(message.id, performance.now());
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error);
    }
  }
};

export async function startBenchHost(options: Partial<RootsHostOptions> = {}): Promise<RootsHost> {
  const host = new RootsHost({ configDir: benchDir('config'), stateThrottleMs: 50, ...options });
  await host.start();
  return host;
}

let serverNumber = 0;

/**
 * Adds servers and waits until each is connected and has asked its first roots/list. Sections 1-4
 * time the notify path (list_changed and the re-fetch), which is how a change reaches a server that
 * is not confined: these servers run with the sandbox off. A confined server gets a restart with new
 * mounts instead; section 9 times that.
 */
export async function addServers(host: RootsHost, count: number, transport = timingServer): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const server = await host.addServer({ name: `server-${++serverNumber}`, transport, enabled: true, sharing: true, sandbox: false });
    ids.push(server.id);
  }
  const settled = () =>
    ids.every((id) => {
      const status = host.getState().servers.find((server) => server.id === id)?.status;
      return status?.state === 'connected' && status.rootsRequestCount > 0;
    });
  await waitUntil(settled, 120_000);
  return ids;
}

export function rootsRequests(host: RootsHost, serverId: string): number {
  return host.getState().servers.find((server) => server.id === serverId)?.status.rootsRequestCount ?? 0;
}
