// What a proxy session is and what it needs from its surroundings: the status it keeps (written to
// its status file by run-proxy.ts) and the hooks run-proxy.ts gives it.
import type { Exposure } from '../host/connections/roots-change-driver.js';
import type { ProxyStatus } from '../host/status/proxy-status.js';
import type { Upstream, UpstreamHandlers } from './upstream.js';

export type RootsPolicy = 'registry' | 'host';

export type SessionStatus = Pick<
  ProxyStatus,
  | 'state'
  | 'draining'
  | 'host'
  | 'hostOffersRoots'
  | 'era'
  | 'eraReason'
  | 'protocolVersion'
  | 'serverInfo'
  | 'serverPid'
  | 'lastRootsRequest'
  | 'rootsRequestCount'
  | 'listChangedCount'
  | 'restartCount'
  | 'rereadsRoots'
  | 'confinement'
  | 'messagesFromHost'
  | 'messagesFromServer'
  | 'error'
  | 'held'
>;

export interface RootsProxyHooks {
  /** The server's effective roots in the registry right now. */
  exposure(): Exposure;
  /** Starts the real server (a fresh process or session) with these handlers attached. */
  openUpstream(handlers: UpstreamHandlers): Promise<Upstream>;
  /** The server takes its folders as arguments: a change means a restart, and no roots capability. */
  injectsRoots(): boolean;
  /** The registry runs it in the OS sandbox: a start in flight will mount the folders it read (absent: unknown, taken as no). */
  sandboxed?(): boolean;
  /** How the server is reached: decides which era carries its folders (era-bridge.ts). */
  transportKind(): 'stdio' | 'http' | 'sse';
  statusChanged(status: SessionStatus): void;
  log(line: string): void;
}


/** A session before anything happened: the proxy's status and its status file start from this. */
export const FRESH_SESSION = {
  state: 'connecting',
  hostOffersRoots: false,
  rootsRequestCount: 0,
  listChangedCount: 0,
  restartCount: 0,
  messagesFromHost: 0,
  messagesFromServer: 0,
} as const satisfies SessionStatus;
