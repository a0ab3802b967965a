// How the app's client opens a session in the era era-choice.ts prefers. The SDK's own 'auto'
// negotiation always takes 2026-07-28 when a server offers it, which leaves a server that reads
// its folders only through the classic request (Angular CLI's `ng mcp`) without any. So for a stdio
// server we probe ourselves, in place, on the one process:
//   1. `server/discover` under an id of our own (stdio-client-transport.ts): an answer after our
//      wait is a slow start, noted, never an error the SDK reports for an id it does not know;
//   2. legacy-first: the 2025 handshake; a server that refuses it (2026-07-28 only) gets the
//      2026-07-28 session on the same process, adopting the discover answer;
//   3. modern-first: the discover answer adopted as is (`connect({ prior })`, no second probe).
// HTTP and SSE servers keep the SDK's negotiation: 2026-07-28 is what carries roots there.
// The verdict is kept per server: the next start skips the probe.
import {
  Client,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type DiscoverResult,
  type PriorDiscovery,
  type Transport,
} from '@modelcontextprotocol/client';
import type { EraReason, WireRoot } from '../../../shared/domain.js';
import { MODERN_PROTOCOL_VERSION, preferredEra, type EraFacts } from './era-choice.js';
import { InPlaceStdioClientTransport } from '../launch/stdio-client-transport.js';

/** What was learned at a connect: reused by the next start of the same server. */
export interface EraVerdict {
  prior: PriorDiscovery;
  reason: EraReason;
}

export interface EraNegotiation extends EraFacts {
  /** From an earlier start of this server (same transport and sharing): skips the probe. */
  known?: EraVerdict | undefined;
  probeTimeoutMs: number;
  connectTimeoutMs: number;
  clientInfo: { name: string; version: string };
  capabilities: Record<string, unknown>;
  /** The server answered the probe after we stopped waiting (stdio): worth a line, not an error. */
  onSlowProbeAnswer?: (afterMs: number) => void;
}

export interface EraSession {
  client: Client;
  verdict: EraVerdict;
}

export const CLIENT_INFO = { name: 'mcp-roots-manager', version: '0.1.0' } as const;

export interface ClientSessionOptions extends Omit<EraNegotiation, 'clientInfo' | 'capabilities'> {
  /** The server asked roots/list: the answer (only asked when `carriesRoots`). */
  answerRoots(): readonly WireRoot[];
  onError(error: Error): void;
}

/**
 * The app's client for one session: the roots capability declared only while roots are carried
 * (otherwise the SDK answers roots/list with -32601), a new client per handshake.
 */
export function openClientSession(transport: Transport, options: ClientSessionOptions): Promise<EraSession> {
  const capabilities = options.carriesRoots ? { roots: { listChanged: true } } : {};
  const newClient = () => {
    const client = new Client({ ...CLIENT_INFO }, { capabilities, versionNegotiation: { mode: 'auto', probe: { timeoutMs: options.probeTimeoutMs } } });
    if (options.carriesRoots) client.setRequestHandler('roots/list', async () => ({ roots: [...options.answerRoots()] }));
    client.onerror = (error) => options.onError(error);
    return client;
  };
  return connectInEra(newClient, transport, { ...options, clientInfo: { ...CLIENT_INFO }, capabilities });
}

/** Opens a session: `newClient` makes a client with every handler set (called twice when a handshake is refused). */
export async function connectInEra(newClient: () => Client, transport: Transport, options: EraNegotiation): Promise<EraSession> {
  const timeout = options.connectTimeoutMs;
  if (options.known) {
    const client = newClient();
    await client.connect(transport, { prior: options.known.prior, timeout });
    return { client, verdict: options.known };
  }
  if (!(transport instanceof InPlaceStdioClientTransport)) {
    const client = newClient();
    await client.connect(transport, { timeout });
    const discover = client.getDiscoverResult();
    const modern = client.getProtocolEra() === 'modern' && discover !== undefined;
    return {
      client,
      verdict: modern ? { prior: { kind: 'modern', discover }, reason: 'remote-modern' } : { prior: { kind: 'legacy' }, reason: 'legacy-only' },
    };
  }
  return connectStdio(newClient, transport, options);
}

async function connectStdio(newClient: () => Client, transport: InPlaceStdioClientTransport, options: EraNegotiation): Promise<EraSession> {
  const timeout = options.connectTimeoutMs;
  let lateDiscover: DiscoverResult | undefined;
  transport.onLateAnswer = (message, afterMs) => {
    lateDiscover = modernDiscover(message) ?? lateDiscover;
    options.onSlowProbeAnswer?.(afterMs);
  };
  await transport.start();
  const reply = await transport.ownRequest('server/discover', probeParams(options), options.probeTimeoutMs);
  if (reply.kind === 'closed') {
    throw new Error('The server exited when asked server/discover (the 2026-07-28 probe); it is started with the 2025 handshake next time.');
  }
  const discover = reply.kind === 'answer' ? modernDiscover(reply.message) : undefined;
  if (discover && preferredEra(options) === 'modern-first') {
    const client = newClient();
    await client.connect(transport, { prior: { kind: 'modern', discover }, timeout });
    return { client, verdict: { prior: { kind: 'modern', discover }, reason: 'newest' } };
  }
  // The 2025 handshake. A 2026-07-28-only server refuses it: the same process then gets the other era.
  transport.keepProcessOnNextClose();
  const legacy = newClient();
  try {
    await legacy.connect(transport, { prior: { kind: 'legacy' }, timeout });
    transport.keepProcessOnNextClose(false);
    const reason: EraReason = discover ? 'folders-first' : reply.kind === 'timeout' ? 'probe-unanswered' : 'legacy-only';
    return { client: legacy, verdict: { prior: { kind: 'legacy' }, reason } };
  } catch (error) {
    transport.keepProcessOnNextClose(false);
    if (!transport.alive) throw error;
    let modern = discover ?? lateDiscover;
    // Unanswered in time, and the answer may still be on its way (a server may answer the
    // handshake before the probe): ask again now that it is clearly up.
    if (!modern && reply.kind === 'timeout') {
      const again = await transport.ownRequest('server/discover', probeParams(options), timeout);
      modern = again.kind === 'answer' ? modernDiscover(again.message) : lateDiscover;
    }
    if (!modern) throw error;
    const client = newClient();
    await client.connect(transport, { prior: { kind: 'modern', discover: modern }, timeout });
    return { client, verdict: { prior: { kind: 'modern', discover: modern }, reason: 'modern-only' } };
  }
}

/** The probe as the SDK sends it: `server/discover` with the full per-request envelope. */
function probeParams(options: EraNegotiation): Record<string, unknown> {
  return {
    _meta: {
      [PROTOCOL_VERSION_META_KEY]: MODERN_PROTOCOL_VERSION,
      [CLIENT_INFO_META_KEY]: options.clientInfo,
      [CLIENT_CAPABILITIES_META_KEY]: options.capabilities,
    },
  };
}

/** A discover answer that offers the 2026-07-28 era; undefined for an error or anything else. */
function modernDiscover(message: unknown): DiscoverResult | undefined {
  const result = (message as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null) return undefined;
  const versions = (result as { supportedVersions?: unknown }).supportedVersions;
  return Array.isArray(versions) && versions.includes(MODERN_PROTOCOL_VERSION) ? (result as DiscoverResult) : undefined;
}
