// The proxy talks to the server in the era that carries its folders (electron/host/connections/era-choice.ts),
// whatever era the host speaks. The host's opening request decides whether the two differ:
//  - a 2025-era host (`initialize`) in front of an HTTP server that speaks 2026-07-28: the proxy
//    answers the host's initialize itself from the server's discover result, and sends each host
//    request on as a 2026-07-28 request (the per-request envelope: the host's identity and
//    capabilities, plus roots). The server then asks for roots inside calls, which the proxy answers;
//    over HTTP a 2025-era request could not have carried its roots/list request at all;
//  - a 2026-era host (`server/discover`) in front of a stdio server that speaks both eras: the proxy
//    opens a 2025-11-25 session with the server for it and answers the host's probe "method not
//    found", so the host falls back to initialize, answered from that session. A server that reads
//    its roots only through the classic request (Angular CLI's `ng mcp`) gets them there.
// Everything else passes through in the host's own era.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LATEST_PROTOCOL_VERSION,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/client';
import type { EraReason } from '../../shared/domain.js';
import { MODERN_PROTOCOL_VERSION, preferredEra } from '../host/connections/era-choice.js';
import { isObject, type JsonObject, type Message } from './json-rpc.js';

const METHOD_NOT_FOUND = -32601;
/** How long the server may take to answer the proxy's own opening requests. */
export const OPENING_TIMEOUT_MS = 20_000;

/** A request of the proxy's own (it gets its own id). */
export interface OwnRequest {
  method: string;
  params?: JsonObject | undefined;
}

export interface BridgePort {
  transportKind(): 'stdio' | 'http' | 'sse';
  /** Roots are declared and answered from the registry (registry policy, folders not passed as arguments). */
  carriesRoots(): boolean;
  /** A request of the proxy's own to the server; resolves with its response. */
  request(message: OwnRequest, timeoutMs: number): Promise<Message>;
  sendUpstream(message: Message): void;
  toHost(message: Message): void;
  /** The version Streamable HTTP carries as a header. */
  setUpstreamVersion(version: string): void;
  /** The 2025 handshake the proxy made with the server itself: replayed to a restarted server. */
  opened(initialize: Message, result: JsonObject): void;
  /** The era and why, for the status. */
  chose(era: 'legacy' | 'modern', reason: EraReason, extra?: { host?: JsonObject; hostOffersRoots?: boolean }): void;
}

type Mode =
  | { kind: 'passthrough' }
  /** 2025-era host, 2026-07-28 server: host requests get the envelope. */
  | { kind: 'modern-upstream'; envelope: JsonObject }
  /** 2026-era host told to fall back, 2025-11-25 server session opened by the proxy. */
  | { kind: 'legacy-upstream'; result: JsonObject };

export class EraBridge {
  private mode: Mode = { kind: 'passthrough' };
  private decided = false;

  constructor(private readonly port: BridgePort) {}

  /** The host speaks one era and the server is spoken to in the other. */
  get bridging(): boolean {
    return this.mode.kind !== 'passthrough';
  }

  /**
   * The host's first request, when it decides an era: true when the bridge takes it (the caller
   * holds back further host messages until `settled` resolves).
   */
  takesOpening(message: Message): boolean {
    if (this.decided || message.method === undefined || message.id === undefined) return false;
    this.decided = true;
    if (!this.port.carriesRoots()) return false;
    const preference = preferredEra({ transport: this.port.transportKind(), carriesRoots: true });
    return (message.method === 'initialize' && preference === 'modern-first' && this.port.transportKind() === 'http') ||
      (message.method === 'server/discover' && preference === 'legacy-first');
  }

  /** Runs the opening the bridge took; resolves once the host has its answer. */
  async open(message: Message): Promise<void> {
    if (message.method === 'initialize') await this.openModernUpstream(message);
    else await this.openLegacyUpstream(message);
  }

  /** A host message after the opening: what to send on (possibly rewritten), or undefined when answered here. */
  fromHost(message: Message): Message | undefined {
    const mode = this.mode;
    if (mode.kind === 'passthrough') return message;
    if (message.method === 'notifications/initialized') return undefined;
    if (message.method === 'initialize' && mode.kind === 'legacy-upstream' && message.id !== undefined) {
      this.port.toHost({ jsonrpc: '2.0', id: message.id, result: mode.result });
      return undefined;
    }
    if (mode.kind === 'modern-upstream' && message.method !== undefined) {
      return { ...message, params: withEnvelope(message.params, mode.envelope) };
    }
    return message;
  }

  /** 2025-era host, HTTP server: is the server a 2026-07-28 one? Then the host never reaches it in 2025. */
  private async openModernUpstream(initialize: Message): Promise<void> {
    const params = initialize.params ?? {};
    const requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : LATEST_PROTOCOL_VERSION;
    const capabilities = isObject(params.capabilities) ? params.capabilities : {};
    const clientInfo = isObject(params.clientInfo) ? params.clientInfo : { name: 'unknown host', version: '' };
    const envelope = {
      [PROTOCOL_VERSION_META_KEY]: MODERN_PROTOCOL_VERSION,
      [CLIENT_INFO_META_KEY]: clientInfo,
      // Elicitation and sampling would come back inside calls, which a 2025-era host cannot answer:
      // they are not declared for it.
      [CLIENT_CAPABILITIES_META_KEY]: { ...without(capabilities, ['roots', 'elicitation', 'sampling']), roots: {} },
    };
    this.port.setUpstreamVersion(MODERN_PROTOCOL_VERSION);
    const reply = await this.port.request({ method: 'server/discover', params: { _meta: envelope } }, OPENING_TIMEOUT_MS).catch(() => undefined);
    const discover = reply?.result;
    if (!isObject(discover) || !Array.isArray(discover.supportedVersions) || !discover.supportedVersions.includes(MODERN_PROTOCOL_VERSION)) {
      // A 2025-era server: the host's own handshake goes through as it came.
      this.port.setUpstreamVersion(requested);
      this.port.sendUpstream(initialize);
      return;
    }
    this.mode = { kind: 'modern-upstream', envelope };
    this.port.chose('modern', 'remote-modern', { host: clientInfo, hostOffersRoots: isObject(capabilities.roots) });
    this.port.toHost({ jsonrpc: '2.0', id: initialize.id ?? null, result: initializeResultFrom(discover, requested) });
  }

  /** 2026-era host, stdio server: does the server speak 2025-11-25 too? Then that session carries the folders. */
  private async openLegacyUpstream(probe: Message): Promise<void> {
    const meta = isObject(probe.params?._meta) ? probe.params._meta : {};
    const reply = await this.port.request({ method: 'server/discover', params: probe.params ?? {} }, OPENING_TIMEOUT_MS).catch(() => undefined);
    const answer = (message: Message | undefined) => this.port.toHost({ ...(message ?? { jsonrpc: '2.0', error: { code: -32603, message: 'The server did not answer server/discover.' } }), jsonrpc: '2.0', id: probe.id ?? null });
    const discover = reply?.result;
    if (!isObject(discover)) {
      answer(reply);
      return;
    }
    const capabilities = isObject(meta[CLIENT_CAPABILITIES_META_KEY]) ? meta[CLIENT_CAPABILITIES_META_KEY] : {};
    const clientInfo = isObject(meta[CLIENT_INFO_META_KEY]) ? meta[CLIENT_INFO_META_KEY] : { name: 'unknown host', version: '' };
    const initialize = {
      jsonrpc: '2.0' as const,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: { ...without(capabilities, ['roots']), roots: { listChanged: true } }, clientInfo },
    };
    const opened = await this.port.request(initialize, OPENING_TIMEOUT_MS).catch(() => undefined);
    const result = opened?.result;
    if (!isObject(result)) {
      // It speaks 2026-07-28 only: the host's era it is (its folders come inside calls there).
      this.port.chose('modern', 'modern-only', { host: clientInfo, hostOffersRoots: isObject(capabilities.roots) });
      answer(reply);
      return;
    }
    this.mode = { kind: 'legacy-upstream', result };
    this.port.opened(initialize, result);
    this.port.sendUpstream({ jsonrpc: '2.0', method: 'notifications/initialized' });
    this.port.chose('legacy', 'folders-first', { host: clientInfo, hostOffersRoots: isObject(capabilities.roots) });
    this.port.toHost({
      jsonrpc: '2.0',
      id: probe.id ?? null,
      error: { code: METHOD_NOT_FOUND, message: 'Method not found: MCP Roots Manager speaks 2025-11-25 with this server so that its folders reach it.' },
    });
  }
}

/** A 2025-era initialize result made from a 2026-07-28 discover result. */
export function initializeResultFrom(discover: JsonObject, requested: string): JsonObject {
  const meta = isObject(discover._meta) ? discover._meta : {};
  const info = isObject(meta[SERVER_INFO_META_KEY]) ? meta[SERVER_INFO_META_KEY] : { name: 'unknown server', version: '' };
  return {
    protocolVersion: (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
    capabilities: isObject(discover.capabilities) ? discover.capabilities : {},
    serverInfo: info,
    ...(typeof discover.instructions === 'string' ? { instructions: discover.instructions } : {}),
  };
}

/** A request's params with the 2026-07-28 envelope in `_meta` (the host's own `_meta` entries kept). */
export function withEnvelope(params: JsonObject | undefined, envelope: JsonObject): JsonObject {
  const meta = isObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, ...envelope } };
}

function without(capabilities: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(capabilities).filter(([key]) => !keys.includes(key)));
}
