// One real RootsHost in a temp config dir behind one real in-process server, plus raw HTTP and
// WebSocket helpers that can send what a browser would refuse to (foreign Host, `..` in paths).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import type { HostState } from '../../../shared/domain.js';
import { RootsHost } from '../../../electron/host/roots-host.js';
import { startServeServer, type ServeServer } from '../../../electron/serve/serve-server.js';
import type { EventStreamOptions } from '../../../electron/serve/event-stream.js';
import type { ConnectionLimits } from '../../../electron/serve/connection-guard.js';

export interface Fixture {
  dir: string;
  host: RootsHost;
  serve: ServeServer;
  rendererDir: string;
  close(): Promise<void>;
}

export async function startFixture(
  options: { events?: EventStreamOptions; withRenderer?: boolean; limits?: Partial<ConnectionLimits> } = {},
): Promise<Fixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-roots-serve-'));
  const rendererDir = path.join(dir, 'renderer');
  if (options.withRenderer !== false) {
    fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>MCP Roots Manager</title>');
    fs.writeFileSync(path.join(rendererDir, 'assets', 'app-abc123.js'), 'console.log("app");');
  }
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'TOP-SECRET');
  const host = new RootsHost({ configDir: path.join(dir, 'config'), monitor: { sweepIntervalMs: 0 }, stateThrottleMs: 0 });
  await host.start();
  let serve: ServeServer;
  try {
    serve = await startServeServer({
      host,
      rendererDir,
      ...(options.events ? { events: options.events } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
  } catch (error) {
    await host.stop();
    throw error;
  }
  return {
    dir,
    host,
    serve,
    rendererDir,
    async close() {
      await serve.close();
      await host.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): unknown;
}

/** A raw request: path and headers go out exactly as given (fetch would normalize both). */
export function request(
  serve: ServeServer,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; auth?: boolean },
): Promise<RawResponse> {
  const headers: Record<string, string> = { host: `127.0.0.1:${serve.port}`, ...options.headers };
  if (options.auth !== false && headers.authorization === undefined) headers.authorization = `Bearer ${serve.token}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: serve.port, method: options.method ?? 'GET', path: options.path, headers, timeout: 5000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export async function call(serve: ServeServer, channel: string, body: unknown, raw = false): Promise<RawResponse> {
  return request(serve, {
    method: 'POST',
    path: `/api/call/${channel}`,
    headers: { 'content-type': 'application/json' },
    body: raw ? (body as string) : JSON.stringify(body),
  });
}

export async function getState(serve: ServeServer): Promise<HostState> {
  const response = await call(serve, 'state.get', {});
  const result = response.json() as { ok: true; value: HostState };
  if (!result.ok) throw new Error(`state.get failed: ${response.text}`);
  return result.value;
}

export const WS_SUBPROTOCOLS = (token: string) => ['mcp-roots.v1', `mcp-roots.token.${token}`];

export interface EventSocket {
  socket: WebSocket;
  messages: { event: string; payload: unknown }[];
  /** Resolves with the first message (already received or not) that matches. */
  next(match: (message: { event: string; payload: unknown }) => boolean, timeoutMs?: number): Promise<{ event: string; payload: unknown }>;
}

export function openEvents(
  serve: ServeServer,
  headers: Record<string, string> = {},
  protocols = WS_SUBPROTOCOLS(serve.token),
  query = '',
): Promise<EventSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${serve.port}/api/events${query}`, protocols, { headers, handshakeTimeout: 5000 });
    const messages: EventSocket['messages'] = [];
    const waiters: { match: (m: EventSocket['messages'][number]) => boolean; resolve: (m: EventSocket['messages'][number]) => void }[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as EventSocket['messages'][number];
      messages.push(message);
      for (const waiter of [...waiters]) {
        if (waiter.match(message)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
    socket.once('open', () =>
      resolve({
        socket,
        messages,
        next(match, timeoutMs = 5000) {
          const seen = messages.find(match);
          if (seen) return Promise.resolve(seen);
          return new Promise((resolveNext, rejectNext) => {
            const timer = setTimeout(() => rejectNext(new Error('no matching event in time')), timeoutMs);
            waiters.push({
              match,
              resolve: (message) => {
                clearTimeout(timer);
                resolveNext(message);
              },
            });
          });
        },
      }),
    );
    socket.once('unexpected-response', (_req, res) => {
      socket.terminate();
      reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode }));
    });
    socket.once('error', reject);
  });
}

export { waitFor } from '../../support/wait-for.js';
