// Connections that have not shown the token cost the server a file descriptor each, and anyone on
// the machine can open them: 24,000 idle ones once exhausted `serve`. So until a socket carries an
// authorized request it is a stranger: it must send its first byte within a few seconds, and at most
// MAX_STRANGERS are kept, the oldest dropped first, so a flood of idle sockets never crowds out the
// page (whose own sockets send their request within milliseconds of connecting).
import type http from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** A socket that has not sent a request's first byte by then is closed. */
  firstByteMs: number;
  /** Headers must be complete by then (Node answers 408 and closes). */
  headersMs: number;
  /** A whole request, body included. */
  requestMs: number;
  /** A kept-alive socket idle this long between requests is closed. */
  keepAliveMs: number;
  /** Sockets that never carried an authorized request, kept at once; the oldest goes first. */
  maxStrangers: number;
  /** Every socket at once, a backstop below the process's file descriptor limit. */
  maxConnections: number;
}

export const DEFAULT_LIMITS: ConnectionLimits = {
  firstByteMs: 5_000,
  headersMs: 5_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  maxStrangers: 256,
  maxConnections: 2_048,
};

/** Options for http.createServer: how often Node checks the headers and request timeouts. */
export function serverTimeouts(limits: ConnectionLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    keepAliveTimeout: limits.keepAliveMs,
    // Node's default checks every 30 s, which would make a 5 s headers timeout a 35 s one.
    connectionsCheckingInterval: Math.min(1_000, limits.headersMs),
  };
}

export class ConnectionGuard {
  /** Strangers in arrival order (a Set iterates oldest first). */
  private readonly strangers = new Set<Socket>();
  private readonly trusted = new WeakSet<Socket>();

  constructor(
    server: http.Server,
    private readonly limits: ConnectionLimits,
  ) {
    server.maxConnections = limits.maxConnections;
    server.on('connection', (socket: Socket) => this.admit(socket));
    // A request has started: the first-byte timer is done; Node's header and request timeouts take over.
    server.on('request', (req: http.IncomingMessage) => req.socket.setTimeout(0));
  }

  get strangerCount(): number {
    return this.strangers.size;
  }

  /** The socket carried an authorized request or upgrade: it is no longer counted or evicted. */
  trust(socket: Socket | import('node:stream').Duplex): void {
    const tcp = socket as Socket;
    this.trusted.add(tcp);
    this.strangers.delete(tcp);
  }

  private admit(socket: Socket): void {
    // Node destroys a socket whose timeout fires when nobody else listens for it.
    socket.setTimeout(this.limits.firstByteMs);
    if (this.trusted.has(socket)) return;
    this.strangers.add(socket);
    socket.once('close', () => this.strangers.delete(socket));
    while (this.strangers.size > this.limits.maxStrangers) {
      const oldest = this.strangers.values().next().value as Socket;
      this.strangers.delete(oldest);
      oldest.destroy();
    }
  }
}
