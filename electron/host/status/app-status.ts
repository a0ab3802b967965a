// What the running app (or `mcp-roots serve`) is doing with its servers, for other processes:
// <configDir>/running/<kind>-<pid>.json, written by RootsHost (status-file.ts says how), read by
// `mcp-roots status`. A process that runs no servers cannot know their state: without a live file
// it says "unknown" rather than guess.
import path from 'node:path';
import { z } from 'zod';
import type { ServerId, ServerStatus } from '../../../shared/domain.js';
import { readLiveStatusFiles, type ReadStatusOptions } from './status-file.js';

export const RUNNING_DIR = 'running';

export type AppKind = 'app' | 'serve';

const appStatusSchema = z
  .object({
    pid: z.number().int().positive(),
    kind: z.enum(['app', 'serve']),
    startedAt: z.number(),
    updatedAt: z.number(),
    /** Each server's status as the app's own UI shows it (ServerStatus, shared/domain.ts). */
    servers: z.record(z.string(), z.custom<ServerStatus>((value) => typeof (value as { state?: unknown } | null)?.state === 'string')),
  })
  .loose();

export type AppStatus = z.infer<typeof appStatusSchema>;

export function appStatusFile(configDir: string, kind: AppKind, pid: number): string {
  return path.join(configDir, RUNNING_DIR, `${kind}-${pid}.json`);
}

/** The live app processes on this registry, the most recently written first. */
export async function readAppStatus(configDir: string, options: ReadStatusOptions = {}): Promise<AppStatus[]> {
  const live = await readLiveStatusFiles(path.join(configDir, RUNNING_DIR), (value) => appStatusSchema.parse(value), (status) => status.pid, options);
  return live.sort((a, b) => b.updatedAt - a.updatedAt);
}

/** Each server's live status: from the app process that wrote last (two may run: the desktop app and serve). */
export function liveServerStatus(apps: readonly AppStatus[]): Map<ServerId, ServerStatus> {
  const statuses = new Map<ServerId, ServerStatus>();
  for (const app of apps) {
    for (const [serverId, status] of Object.entries(app.servers)) if (!statuses.has(serverId)) statuses.set(serverId, status);
  }
  return statuses;
}
