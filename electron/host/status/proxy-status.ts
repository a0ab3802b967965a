// Proxied servers run in processes the app did not start (a host launched `mcp-roots proxy`).
// Each proxy keeps a small JSON file in <configDir>/proxies/ (status-file.ts); this is its shape
// and the read side: the proxies that are alive, as the app and the CLI show them.
import path from 'node:path';
import { z } from 'zod';
import { ERA_REASONS, PROXY_STATES, RESTART_WHYS, type ProxiedSession } from '../../../shared/domain.js';
import type { ServerConfinement } from '../../../shared/sandbox.js';
import { readLiveStatusFiles, type ReadStatusOptions } from './status-file.js';

const confinementState = z.enum(['enforced', 'advisory', 'off']);

export const PROXIES_DIR = 'proxies';

/** What a proxy of a version before named lifecycles wrote, in today's words (it may still run beside a newer app). */
const LEGACY_STATES: Record<string, (typeof PROXY_STATES)[number]> = { connected: 'ready', closed: 'stopped', error: 'stopped' };
const proxyState = z.preprocess((value) => (typeof value === 'string' ? (LEGACY_STATES[value] ?? value) : value), z.enum(PROXY_STATES));

const implementation = z.object({ name: z.string(), version: z.string() }).loose();

// Only a forecast, for the matrix's ↻ (it grants nothing): what cannot be read, a why from a newer
// proxy included, is left out, not guessed, and does not cost the rest of the status.
const restartWhy = z.enum(RESTART_WHYS).optional().catch(undefined);
const changeForecast = z.object({ grant: restartWhy, revoke: restartWhy }).optional().catch(undefined);

export const proxyStatusSchema = z
  .object({
    proxyPid: z.number().int().positive(),
    serverId: z.string(),
    serverName: z.string(),
    startedAt: z.number(),
    updatedAt: z.number(),
    state: proxyState,
    /** While state is 'draining': the calls a restart waits for, and until when. */
    draining: z.object({ calls: z.number().int(), until: z.number(), limitMs: z.number(), reason: z.string() }).optional(),
    /** Whose roots the server is told: the registry's (default) or the host's own, passed through. */
    rootsPolicy: z.enum(['registry', 'host']),
    host: implementation.optional(),
    /** The host declared the roots capability itself (shown: the registry still decides by default). */
    hostOffersRoots: z.boolean(),
    /** The era the server is spoken to in (the host's may differ: electron/proxy/era-bridge.ts). */
    era: z.enum(['legacy', 'modern']).optional(),
    eraReason: z.enum(ERA_REASONS).optional(),
    protocolVersion: z.string().optional(),
    serverInfo: implementation.optional(),
    serverPid: z.number().int().optional(),
    lastRootsRequest: z.object({ at: z.number(), uris: z.array(z.string()) }).optional(),
    rootsRequestCount: z.number().int(),
    listChangedCount: z.number().int(),
    restartCount: z.number().int(),
    /** Learned: it asks again after list_changed (true), or changes reach it by a restart (false). */
    rereadsRoots: z.boolean().optional(),
    /** How the server runs: in the OS sandbox, advisory, or with the sandbox off (shared/sandbox.ts). */
    confinement: z
      .custom<ServerConfinement>((value) => confinementState.safeParse((value as { state?: unknown } | null)?.state).success)
      .optional(),
    messagesFromHost: z.number().int(),
    messagesFromServer: z.number().int(),
    error: z.string().optional(),
    /** What the proxy does before the server runs (an `npx` package being installed), with how long so far. */
    preparing: z.string().optional(),
    /** Its server failed in a way no retry fixes (server-failure.ts holdReason): it waits for a grant or setting. */
    held: z.object({ reason: z.enum(['blocked-path', 'setup', 'exits-at-start']), at: z.number() }).optional(),
    /** What a grant or revoke would do to its server now: the proxy's roots-change policy, asked ahead (roots-change-policy.ts forecastChange). */
    changeRestarts: changeForecast,
  })
  .loose();

export type ProxyStatus = z.infer<typeof proxyStatusSchema>;

export function proxiesDir(configDir: string): string {
  return path.join(configDir, PROXIES_DIR);
}

export function proxyStatusFile(configDir: string, serverId: string, pid: number): string {
  // Ids are UUIDs in practice; anything else is made safe for a file name (the file holds the real id).
  return path.join(proxiesDir(configDir), `${serverId.replace(/[^\w-]/g, '_')}-${pid}.json`);
}

export type ListProxiesOptions = ReadStatusOptions;

/** The live proxies, oldest first. Files of dead or silent proxies are removed on the way. */
export async function listLiveProxies(configDir: string, options: ListProxiesOptions = {}): Promise<ProxyStatus[]> {
  const live = await readLiveStatusFiles(proxiesDir(configDir), (value) => proxyStatusSchema.parse(value), (status) => status.proxyPid, options);
  return live.sort((a, b) => a.startedAt - b.startedAt);
}

/** A proxy's status as the UIs show it. */
export function proxiedSession(status: ProxyStatus): ProxiedSession {
  return {
    serverId: status.serverId,
    proxyPid: status.proxyPid,
    host: status.host ? { name: status.host.name, version: status.host.version } : undefined,
    state: status.state,
    draining: status.draining,
    rootsPolicy: status.rootsPolicy,
    hostOffersRoots: status.hostOffersRoots,
    era: status.era,
    eraReason: status.eraReason,
    protocolVersion: status.protocolVersion,
    lastRootsRequest: status.lastRootsRequest,
    rootsRequestCount: status.rootsRequestCount,
    listChangedCount: status.listChangedCount,
    startedAt: status.startedAt,
    updatedAt: status.updatedAt,
    error: status.error,
    confinement: status.confinement,
    changeRestarts: status.changeRestarts,
  };
}
