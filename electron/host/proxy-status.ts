// Proxied servers run in processes the app did not start (a host launched `mcp-roots proxy`).
// Each proxy keeps a small JSON file in <configDir>/proxies/; this is the read side: list the
// proxies that are alive, drop the files of those that died without cleaning up.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ERA_REASONS } from '../../shared/domain.js';
import type { ServerConfinement } from '../../shared/sandbox.js';
import { isProcessAlive } from './process-alive.js';

const confinementState = z.enum(['enforced', 'advisory', 'off']);

export const PROXIES_DIR = 'proxies';
/** A proxy rewrites its file at least this often, so a reused pid cannot keep a dead file alive. */
export const PROXY_HEARTBEAT_MS = 15_000;
const STALE_AFTER_MS = 4 * PROXY_HEARTBEAT_MS;

const implementation = z.object({ name: z.string(), version: z.string() }).loose();

export const proxyStatusSchema = z
  .object({
    proxyPid: z.number().int().positive(),
    serverId: z.string(),
    serverName: z.string(),
    startedAt: z.number(),
    updatedAt: z.number(),
    state: z.enum(['connecting', 'connected', 'restarting', 'closed', 'error']),
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

export interface ListProxiesOptions {
  isAlive?: (pid: number) => boolean;
  now?: number;
}

/** The live proxies, oldest first. Files of dead or silent proxies are removed on the way. */
export async function listLiveProxies(configDir: string, options: ListProxiesOptions = {}): Promise<ProxyStatus[]> {
  const isAlive = options.isAlive ?? isProcessAlive;
  const now = options.now ?? Date.now();
  const dir = proxiesDir(configDir);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const live: ProxyStatus[] = [];
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      let status: ProxyStatus;
      try {
        status = proxyStatusSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')));
      } catch {
        // Vanished or half-written between readdir and read: the next listing sees it settled.
        return;
      }
      if (!isAlive(status.proxyPid) || now - status.updatedAt > STALE_AFTER_MS) {
        await fs.rm(file, { force: true });
        return;
      }
      live.push(status);
    }),
  );
  return live.sort((a, b) => a.startedAt - b.startedAt);
}
