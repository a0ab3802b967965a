// The headless server: the host's contract over HTTP, its events over one WebSocket, and the
// built renderer as static files, on 127.0.0.1 only. Tests and the e2e harness start it in-process.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RootsHost } from '../host/roots-host.js';
import { handleApiCall } from './api-call.js';
import { EventStream, type EventStreamOptions } from './event-stream.js';
import { rejectUpgrade, sendError } from './http-reply.js';
import { defaultRendererDir } from './renderer-dir.js';
import { checkSite, checkToken, isDenial } from './request-guard.js';
import { API_CALL_PREFIX, API_EVENTS_PATH, tokenFromAuthorization, tokenFromSubprotocols } from './serve-protocol.js';
import { createToken } from './serve-token.js';
import { createStaticFiles } from './static-files.js';

/** Loopback only: the server must be unreachable from any other machine. */
export const SERVE_HOSTNAME = '127.0.0.1';

export interface ServeServerOptions {
  host: RootsHost;
  /** 0 or absent: a free port chosen by the system. */
  port?: number;
  rendererDir?: string;
  events?: EventStreamOptions;
}

export interface ServeServer {
  /** Open this in a browser: the token is in the fragment, which browsers never send. */
  url: string;
  origin: string;
  token: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

export async function startServeServer(options: ServeServerOptions): Promise<ServeServer> {
  const { host } = options;
  const token = createToken();
  const serveStatic = createStaticFiles(options.rendererDir ?? defaultRendererDir());
  const events = new EventStream(host, options.events);
  let port = options.port ?? 0;

  const server = http.createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      sendError(res, 500, 'internal', error instanceof Error ? error.message : String(error));
    });
  });
  // Slow-loris bounds; API bodies are small and pages are local.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const site = checkSite(req.headers, port);
    if (isDenial(site)) return sendError(res, site.status, site.code, site.message);
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    if (rawPath === '/api' || rawPath.startsWith('/api/')) {
      const denied = checkToken(tokenFromAuthorization(req.headers.authorization), token);
      if (denied) return sendError(res, denied.status, denied.code, denied.message, { 'WWW-Authenticate': 'Bearer' });
      if (rawPath.startsWith(API_CALL_PREFIX)) {
        const channel = decodeSegment(rawPath.slice(API_CALL_PREFIX.length));
        if (channel === undefined) return sendError(res, 404, 'invalid-input', 'Unknown channel.');
        return handleApiCall(host, channel, req, res);
      }
      // An authorized plain GET here lets the page tell "bad token" from "server down".
      if (rawPath === API_EVENTS_PATH) return sendError(res, 426, 'invalid-input', 'Connect with a WebSocket.', { Upgrade: 'websocket' });
      return sendError(res, 404, 'not-found', 'No such API.');
    }
    return serveStatic(req, res, rawPath);
  }

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const site = checkSite(req.headers, port);
    if (isDenial(site)) return rejectUpgrade(socket, site.status, site.code, site.message);
    const rawPath = (req.url ?? '/').split('?')[0];
    if (rawPath !== API_EVENTS_PATH) return rejectUpgrade(socket, 404, 'not-found', 'No such endpoint.');
    const denied = checkToken(tokenFromSubprotocols(req.headers['sec-websocket-protocol']), token);
    if (denied) return rejectUpgrade(socket, denied.status, denied.code, denied.message);
    events.accept(req, socket, head);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: SERVE_HOSTNAME, port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    events.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const origin = `http://${SERVE_HOSTNAME}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    port,
    server,
    close() {
      closing ??= new Promise<void>((resolve) => {
        events.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
