// The proxy handles JSON-RPC as plain objects: it reads, routes and rewrites a few fields, and
// passes everything else on as it came. No SDK schema stands between the host and the server.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

export type RequestId = string | number;
export type JsonObject = Record<string, unknown>;

/** Any JSON-RPC 2.0 message, loose on purpose: unknown fields must survive the trip. */
export interface Message extends JsonObject {
  jsonrpc: '2.0';
  id?: RequestId | null;
  method?: string;
  params?: JsonObject;
  result?: JsonObject;
  error?: { code: number; message: string; data?: unknown };
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INTERNAL_ERROR = -32603;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isMessage(value: unknown): value is Message {
  return isObject(value) && value.jsonrpc === '2.0';
}

export function isRequest(message: Message): message is Message & { id: RequestId; method: string } {
  return typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number');
}

export function isNotification(message: Message): message is Message & { method: string } {
  return typeof message.method === 'string' && message.id === undefined;
}

export function isResponse(message: Message): boolean {
  return message.method === undefined && ('result' in message || 'error' in message);
}

export function errorResponse(id: RequestId | null, code: number, message: string): Message {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The SDK transports are typed with the SDK's message type; ours is structurally the same JSON. */
export function asSdkMessage(message: Message): JSONRPCMessage {
  return message as unknown as JSONRPCMessage;
}

/**
 * Ids of the requests the proxy itself sends to the server (a replayed `initialize`, an
 * `input_required` retry). They live in the host's id space, so they use a prefix no host uses:
 * hosts number their requests.
 */
export class ProxyIds {
  private next = 1;
  private readonly prefix = 'mcp-roots-proxy:';

  create(): string {
    return `${this.prefix}${this.next++}`;
  }

  owns(id: unknown): id is string {
    return typeof id === 'string' && id.startsWith(this.prefix);
  }
}
