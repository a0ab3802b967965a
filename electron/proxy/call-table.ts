// Which request is whose. Host requests travel under the host's own id, except retries of an
// input_required round, which the proxy sends under an id of its own and maps back; the proxy's
// own requests (a replayed initialize) are answered to the proxy, never to the host.
import type { JsonObject, Message, RequestId } from './json-rpc.js';
import { ProxyIds } from './json-rpc.js';

export interface PendingCall {
  method: string;
  params: JsonObject | undefined;
  /** The id the server knows this call by: the host's, or a proxy id after a retry. */
  upstreamId: RequestId;
  rounds: number;
}

export class CallTable {
  private readonly ids = new ProxyIds();
  private readonly calls = new Map<RequestId, PendingCall>();
  private readonly retried = new Map<RequestId, RequestId>();
  private readonly own = new Map<string, (message: Message) => void>();
  /** How to end each own request still waiting: a closing proxy must not wait out their timeouts. */
  private readonly abandon = new Map<string, (error: Error) => void>();

  add(hostId: RequestId, method: string, params: JsonObject | undefined): void {
    this.calls.set(hostId, { method, params, upstreamId: hostId, rounds: 0 });
  }

  get(hostId: RequestId): PendingCall | undefined {
    return this.calls.get(hostId);
  }

  delete(hostId: RequestId): boolean {
    return this.calls.delete(hostId);
  }

  entries(): [RequestId, PendingCall][] {
    return [...this.calls];
  }

  /** Moves a call to a fresh proxy id for its next round; returns that id. */
  retry(hostId: RequestId, call: PendingCall): string {
    const id = this.ids.create();
    call.upstreamId = id;
    this.retried.set(id, hostId);
    return id;
  }

  /** The host id a server response belongs to (and forgets the retry mapping). */
  hostIdOf(upstreamId: RequestId): RequestId {
    const hostId = this.retried.get(upstreamId) ?? upstreamId;
    this.retried.delete(upstreamId);
    return hostId;
  }

  /** Registers a request of the proxy's own; returns its id. */
  expect(onResponse: (message: Message) => void): string {
    const id = this.ids.create();
    this.own.set(id, onResponse);
    return id;
  }

  forget(id: string): void {
    this.own.delete(id);
    this.abandon.delete(id);
  }

  /** A request of the proxy's own: `send` puts it on the wire under the given id; rejects after `timeoutMs`. */
  request(send: (id: string) => void, timeoutMs: number, what: string): Promise<Message> {
    return new Promise<Message>((resolve, reject) => {
      const id = this.expect((response) => {
        clearTimeout(timer);
        this.abandon.delete(id);
        resolve(response);
      });
      const timer = setTimeout(() => {
        this.forget(id);
        reject(new Error(`The server did not answer ${what} in time.`));
      }, timeoutMs);
      this.abandon.set(id, (error) => {
        clearTimeout(timer);
        reject(error);
      });
      send(id);
    });
  }

  /** Hands a response to the proxy request waiting for it; false when it is not one of ours. */
  settleOwn(upstreamId: RequestId): ((message: Message) => void) | undefined {
    if (!this.ids.owns(upstreamId)) return undefined;
    const handler = this.own.get(upstreamId);
    this.own.delete(upstreamId);
    this.abandon.delete(upstreamId);
    return handler;
  }

  /** Answers every request of the proxy's own with an error now: the process they went to is gone. */
  failOwn(error: (id: string) => Message): void {
    const own = [...this.own];
    this.own.clear();
    for (const [id, onResponse] of own) onResponse(error(id));
  }

  /**
   * Rejects every own request still waiting, at once. Their timers (20 s for a handshake) would
   * otherwise keep a proxy whose host has gone alive until they fire.
   */
  abandonOwn(reason: string): void {
    const waiting = [...this.abandon.values()];
    this.own.clear();
    this.abandon.clear();
    for (const fail of waiting) fail(new Error(reason));
  }

  clear(): void {
    this.calls.clear();
    this.retried.clear();
    this.own.clear();
  }
}
