// The real server behind the proxy, started from its registry config exactly as the app would
// (stdio child or HTTP/SSE session; confined by the OS sandbox unless it is off or unavailable).
// Its stderr goes to ours: hosts keep that as the server's log.
import type { Transport } from '@modelcontextprotocol/client';
import type { Writable } from 'node:stream';
import type { ServerRecord } from '../../shared/domain.js';
import type { SandboxSelfCheck, ServerConfinement } from '../../shared/sandbox.js';
import { injectRoots, usesRootPlaceholders } from '../host/argument-injection.js';
import type { ExposedFolder } from '../host/exposure.js';
import { prepareStart, type StartOptions } from '../host/stdio-start.js';
import { buildTransport } from '../host/transport-factory.js';

export interface Upstream {
  transport: Transport;
  pid?: number | undefined;
  confinement?: ServerConfinement | undefined;
  /** Enforced: proves the running server's sandbox from outside. */
  verify?: (() => Promise<SandboxSelfCheck>) | undefined;
}

export interface UpstreamHandlers {
  onmessage(message: unknown): void;
  onclose(): void;
  onerror(error: Error): void;
}

/** Starts the server with these effective folders (its `${roots}` placeholders, its sandbox's mounts). */
export async function openUpstream(
  record: ServerRecord,
  folders: readonly ExposedFolder[],
  handlers: UpstreamHandlers,
  stderr: Writable,
  options: StartOptions,
): Promise<Upstream> {
  const config = usesRootPlaceholders(record.transport) ? injectRoots(record.transport, folders.map((folder) => folder.serverPath)) : record.transport;
  const prepared = await prepareStart(record, config, folders, options);
  const built = buildTransport(prepared.transport, undefined, { childDescriptors: prepared.confined?.openDescriptors });
  const { transport } = built;
  transport.onmessage = (message) => handlers.onmessage(message);
  transport.onclose = () => handlers.onclose();
  transport.onerror = (error) => handlers.onerror(error);
  // end: false: one server exiting must not close the proxy's own stderr (a restart follows).
  built.stderr?.pipe(stderr, { end: false });
  await transport.start();
  const pid = built.pid?.() ?? undefined;
  const confined = prepared.confined;
  return { transport, pid, confinement: prepared.confinement, verify: confined ? () => confined.selfCheck(pid) : undefined };
}
