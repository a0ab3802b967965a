// `/api/events`: pushes the host's events to every connected page. State is a full snapshot, so a
// slow socket only ever needs the newest one: intermediate snapshots are dropped, not queued.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { EventName, EventPayloads } from '../../shared/contract.js';
import type { RootsHost } from '../host/roots-host.js';
import { WS_PROTOCOL } from './serve-protocol.js';

export interface EventStreamOptions {
  /** Above this many unsent bytes a socket gets no more intermediate state snapshots. */
  highWaterBytes?: number;
  /** How often idle sockets are pinged; one that missed the previous ping is dropped. */
  heartbeatMs?: number;
}

interface Client {
  socket: WebSocket;
  /** The newest state snapshot this socket skipped while it was backed up. */
  pendingState: string | undefined;
  alive: boolean;
}

export function encodeEvent<E extends EventName>(event: E, payload: EventPayloads[E]): string {
  return JSON.stringify({ event, payload });
}

export class EventStream {
  private readonly clients = new Set<Client>();
  private readonly wss: WebSocketServer;
  private readonly highWater: number;
  private readonly heartbeat: NodeJS.Timeout;
  /** The host hands out one state object until it changes; encode each one once, not per socket. */
  private encoded: { state: EventPayloads['state']; data: string } | undefined;
  private readonly onState = (state: EventPayloads['state']) => this.broadcastState(this.encodeState(state));
  private readonly onActivity = (activity: EventPayloads['activity']) => this.broadcastActivity(encodeEvent('activity', activity));

  constructor(
    private readonly host: RootsHost,
    options: EventStreamOptions = {},
  ) {
    this.highWater = options.highWaterBytes ?? 1024 * 1024;
    this.wss = new WebSocketServer({
      noServer: true,
      // Pages never send anything; a tiny cap makes a misbehaving one cheap to drop.
      maxPayload: 4096,
      handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
    });
    host.on('state', this.onState);
    host.on('activity', this.onActivity);
    this.heartbeat = setInterval(() => this.sweep(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  /** Completes an upgrade the caller has already authorized. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws));
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.host.off('state', this.onState);
    this.host.off('activity', this.onActivity);
    for (const client of this.clients) {
      client.socket.close(1001, 'Server stopping');
      // Do not wait out the closing handshake of a peer that never answers.
      setTimeout(() => client.socket.terminate(), 500).unref();
    }
    this.clients.clear();
    this.encoded = undefined;
    this.wss.close();
  }

  private attach(socket: WebSocket): void {
    const client: Client = { socket, pendingState: undefined, alive: true };
    this.clients.add(client);
    socket.on('pong', () => (client.alive = true));
    socket.on('close', () => this.clients.delete(client));
    socket.on('error', () => socket.terminate());
    // A page that connects (or reconnects) renders from this snapshot, without a separate fetch.
    // Usually the one last broadcast: at 25,000 grants its 1.3 MB are not encoded again per page.
    this.send(client, this.encodeState(this.host.getState()));
  }

  private encodeState(state: EventPayloads['state']): string {
    if (this.encoded?.state !== state) this.encoded = { state, data: encodeEvent('state', state) };
    return this.encoded.data;
  }

  private broadcastState(data: string): void {
    for (const client of this.clients) {
      if (client.socket.bufferedAmount > this.highWater) client.pendingState = data;
      else this.send(client, data);
    }
  }

  private broadcastActivity(data: string): void {
    // The activity log stays in the host (`servers.activity`); a backed-up page can re-read it.
    for (const client of this.clients) {
      if (client.socket.bufferedAmount <= this.highWater) this.send(client, data);
    }
  }

  private send(client: Client, data: string): void {
    if (client.socket.readyState !== WebSocket.OPEN) return;
    // Each write's completion is when the buffer shrinks: the moment to send a skipped snapshot.
    client.socket.send(data, () => this.flushPending(client));
  }

  private flushPending(client: Client): void {
    const pending = client.pendingState;
    if (pending === undefined || client.socket.bufferedAmount > this.highWater) return;
    client.pendingState = undefined;
    this.send(client, pending);
  }

  private sweep(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }
}
