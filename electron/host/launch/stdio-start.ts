// How a server is started: the one decision between "its own command" and "its command inside the
// OS sandbox", for the app's connections and for `mcp-roots proxy` alike. A server whose sandbox is
// on but cannot be prepared is not started at all (never quietly unconfined).
import type { ServerRecord, TransportConfig } from '../../../shared/domain.js';
import type { FileRecordBounds } from '../../../shared/file-record.js';
import type { ServerConfinement } from '../../../shared/sandbox.js';
import { CONTAINER_CONFINEMENT, isContainerRun, withContainerMounts } from './docker-mounts.js';
import type { ExposedFolder } from '../access/exposure.js';
import { confineStdio, type ConfinedStdio } from '../sandbox/confine-stdio.js';
import type { SandboxSupport } from '../sandbox/sandbox-probe.js';
import type { GrantedFolder } from '../sandbox/sandbox-types.js';
import { sandboxSupport } from '../sandbox/probe-cache.js';
import { startMark } from '../sandbox/start-marks.js';

export interface PreparedStart {
  /** What to start: the server's own config, or its confined command line. */
  transport: TransportConfig;
  confinement: ServerConfinement;
  /** Set while enforced: the self-check and the stderr reader of this start. */
  confined?: ConfinedStdio | undefined;
}

export interface StartOptions {
  /** The app's data folder (the registry's config dir): private HOME/TMPDIR and packages below it. */
  dataDir: string;
  /** Tests: a probe made with another PATH or platform. */
  support?: SandboxSupport | undefined;
  /** A destination its allowed hosts refused, once each (the proxy's stderr; the app's activity log). */
  onNetworkRefused?: ((line: string) => void) | undefined;
  /** The file record's bounds as the settings say now (read at each trim): a change applies to a running server. */
  recordBounds?: (() => FileRecordBounds) | undefined;
}

const REMOTE: ServerConfinement = {
  state: 'advisory',
  reasonCode: 'remote-server',
  reason: 'It runs elsewhere, behind its URL: no sandbox of this computer reaches it. It is told its folders and sees its own files.',
};

/**
 * The sandbox's roots for these folders, each with the protected names its grant chose to leave
 * writable: the same at start and for a live change (live-grants.ts), so a grant mounted live is
 * protected exactly as it would be at a new start.
 */
export function sandboxRoots(folders: readonly ExposedFolder[], writableByChoice: ServerRecord['writableByChoice']): GrantedFolder[] {
  return folders.map((folder) => ({ path: folder.path, mode: folder.mode, writableByChoice: writableByChoice?.[folder.rootId] }));
}

/**
 * Prepares one start of a server whose transport (folders already injected) and effective folders
 * are given. Throws SandboxSetupError when the sandbox is on but the server cannot be prepared.
 */
export async function prepareStart(
  record: ServerRecord,
  transport: TransportConfig,
  folders: readonly ExposedFolder[],
  options: StartOptions,
): Promise<PreparedStart> {
  if (transport.type !== 'stdio') return { transport, confinement: REMOTE };
  // A container's mounts are its grants, whatever the sandbox setting; bwrap around the docker client would confine nothing.
  if (isContainerRun(transport)) return { transport: withContainerMounts(transport, folders), confinement: CONTAINER_CONFINEMENT };
  if (!record.sandbox) return { transport, confinement: { state: 'off', reason: 'You turned the sandbox off for this server.' } };
  startMark('prepare');
  const support = options.support ?? (await sandboxSupport(options.dataDir));
  startMark('probe');
  const confined = await confineStdio(transport, {
    serverId: record.id,
    roots: sandboxRoots(folders, record.writableByChoice),
    dataDir: options.dataDir,
    network: record.network,
    ownSandboxes: record.ownSandboxes === true,
    localPorts: record.allowLocal,
    allowHosts: record.allowHosts,
    serverName: record.name,
    onNetworkRefused: options.onNetworkRefused,
    limits: record.limits,
    support,
    recordBounds: options.recordBounds,
  });
  startMark('confined');
  const { kind, reasonCode, reason } = confined.enforcement;
  if (kind === 'none' || reasonCode !== 'ok') {
    return { transport, confinement: { state: 'advisory', reasonCode: reasonCode === 'ok' ? 'platform-unsupported' : reasonCode, reason } };
  }
  // Under bwrap the grants come by a file view exactly when they can change live (confine-stdio.ts).
  const grants = kind === 'bwrap' ? (confined.live.available ? ('view' as const) : ('mounts' as const)) : undefined;
  return { transport: confined.config, confinement: { state: 'enforced', kind, network: record.network, ...(confined.loopback ? { loopback: confined.loopback } : {}), ...(grants ? { grants } : {}) }, confined };
}
