// The headless server: the host's contract over HTTP, its events over one WebSocket, and the
// built renderer as static files, on 127.0.0.1 only. Tests and the e2e harness start it in-process.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RootsHost } from '../host/roots-host.js';
import { handleApiCall } from './api-call.js';
import { ConnectionGuard, DEFAULT_LIMITS, serverTimeouts, type ConnectionLimits } from './connection-guard.js';
import { EventStream, type EventStreamOptions } from './event-stream.js';
import { rejectUpgrade, SECURITY_HEADERS, sendError } from './http-reply.js';
import { defaultRendererDir } from './renderer-dir.js';
import { checkSite, isDenial, NOT_AUTHORIZED } from './request-guard.js';
import { API_CALL_PREFIX, API_EVENTS_PATH, API_SESSION_PATH, tokenFromAuthorization, tokenFromSubprotocols } from './serve-protocol.js';
import { ServeSessions } from './serve-session.js';
import { createToken, tokenMatches } from './serve-token.js';
import { createStaticFiles } from './static-files.js';

/** Loopback only: the server must be unreachable from any other machine. */
export const SERVE_HOSTNAME = '127.0.0.1';

/** Open event sockets at once (one per page or tab); more are refused with 503. */
export const MAX_EVENT_SOCKETS = 32;

export interface ServeServerOptions {
  host: RootsHost;
  /** 0 or absent: a free port chosen by the system. */
  port?: number;
  rendererDir?: string;
  events?: EventStreamOptions;
  /** Timeouts and caps for sockets (tests shorten them); see connection-guard.ts. */
  limits?: Partial<ConnectionLimits>;
}

export interface ServeServer {
  /**
   * Open this in a browser: the token is in the fragment, which browsers never send; the page
   * exchanges it for a session cookie at once and takes it out of the address bar.
   */
  url: string;
  origin: string;
  token: string;
  port: number;
  server: http.Server;
  /** Sockets that have not carried an authorized request yet. */
  readonly strangerCount: number;
  /** Called each time a page exchanges the token for a session cookie. */
  onSession(listener: () => void): void;
  close(): Promise<void>;
}

export async function startServeServer(options: ServeServerOptions): Promise<ServeServer> {
  const { host } = options;
  const token = createToken();
  const serveStatic = createStaticFiles(options.rendererDir ?? defaultRendererDir());
  const events = new EventStream(host, options.events);
  const limits: ConnectionLimits = { ...DEFAULT_LIMITS, ...options.limits };
  let port = options.port ?? 0;
  // Known once listening; no request arrives before that.
  let sessions = new ServeSessions(port);

  const server = http.createServer(serverTimeouts(limits), (req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      sendError(res, 500, 'internal', error instanceof Error ? error.message : String(error));
    });
  });
  const guard = new ConnectionGuard(server, limits);
  const sessionListeners: (() => void)[] = [];

  /**
   * The token (Authorization: Bearer, for scripts and the page's one exchange) or a session cookie.
   * A cookie is sent by the browser on its own, so it counts only with our Origin on the request:
   * another page on 127.0.0.1 (any port: cookies ignore ports) gets it sent but not accepted.
   */
  function authorized(req: http.IncomingMessage, origin: string, bearer: string | undefined): boolean {
    if (tokenMatches(bearer, token)) return true;
    return req.headers.origin === origin && sessions.matches(req.headers);
  }

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const site = checkSite(req.headers, port);
    if (isDenial(site)) return sendError(res, site.status, site.code, site.message);
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    if (rawPath === '/api' || rawPath.startsWith('/api/')) {
      const bearer = tokenFromAuthorization(req.headers.authorization);
      if (!authorized(req, site.origin, bearer)) {
        const denied = NOT_AUTHORIZED;
        return sendError(res, denied.status, denied.code, denied.message, { 'WWW-Authenticate': 'Bearer' });
      }
      guard.trust(req.socket);
      if (rawPath === API_SESSION_PATH) {
        if (req.method !== 'POST') return sendError(res, 405, 'invalid-input', 'Use POST.', { Allow: 'POST' });
        // Only the token itself mints a session: a cookie cannot renew itself forever.
        if (!tokenMatches(bearer, token)) return sendError(res, 401, 'unauthorized', 'Exchange the token, not a cookie.');
        res.writeHead(204, { ...SECURITY_HEADERS, 'Set-Cookie': sessions.create(), 'Cache-Control': 'no-store' });
        res.end();
        for (const listener of sessionListeners) listener();
        return;
      }
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
    if (!authorized(req, site.origin, tokenFromSubprotocols(req.headers['sec-websocket-protocol']))) {
      const denied = NOT_AUTHORIZED;
      return rejectUpgrade(socket, denied.status, denied.code, denied.message);
    }
    // Each page holds one socket; more than a handful of tabs' worth is a client gone wrong.
    if (events.size >= MAX_EVENT_SOCKETS) return rejectUpgrade(socket, 503, 'internal', 'Too many open pages.');
    guard.trust(socket);
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
  sessions = new ServeSessions(port);
  const origin = `http://${SERVE_HOSTNAME}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    port,
    server,
    get strangerCount() {
      return guard.strangerCount;
    },
    onSession(listener) {
      sessionListeners.push(listener);
    },
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
