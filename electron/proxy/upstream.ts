// The real server behind the proxy, started from its registry config exactly as the app would
// (stdio child or HTTP/SSE session). Its stderr goes to ours: hosts keep that as the server's log.
import type { Transport } from '@modelcontextprotocol/client';
import type { Writable } from 'node:stream';
import type { TransportConfig } from '../../shared/domain.js';
import { injectRoots, usesRootPlaceholders } from '../host/argument-injection.js';
import { buildTransport } from '../host/transport-factory.js';

export interface Upstream {
  transport: Transport;
  pid?: number | undefined;
}

export interface UpstreamHandlers {
  onmessage(message: unknown): void;
  onclose(): void;
  onerror(error: Error): void;
}

/** Starts the server; `folders` fill `${roots}` placeholders when the config has any. */
export async function openUpstream(
  config: TransportConfig,
  folders: readonly string[],
  handlers: UpstreamHandlers,
  stderr: Writable,
): Promise<Upstream> {
  const effective = usesRootPlaceholders(config) ? injectRoots(config, folders) : config;
  const built = buildTransport(effective);
  const { transport } = built;
  transport.onmessage = (message) => handlers.onmessage(message);
  transport.onclose = () => handlers.onclose();
  transport.onerror = (error) => handlers.onerror(error);
  // end: false: one server exiting must not close the proxy's own stderr (a restart follows).
  built.stderr?.pipe(stderr, { end: false });
  await transport.start();
  return { transport, pid: built.pid?.() ?? undefined };
}
