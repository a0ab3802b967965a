// Builds the transport of a stdio server: the SDK's safe default environment with the server's own
// variables merged over it, its stderr captured, its reading bounded (inbound-limits.ts). Apart
// from the HTTP one (http-transport-factory.ts) so that a proxy of a stdio server never loads the
// SDK's HTTP and SSE clients.
import type { Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import type { StdioTransportConfig } from '../../../shared/domain.js';
import { InboundLimiter, type InboundLimits } from './inbound-limits.js';
import { InPlaceStdioClientTransport, type ChildDescriptors } from './stdio-client-transport.js';

export interface BuildOptions {
  /**
   * Run a stdio child below normal CPU priority. The app's own connections use it: those servers sit
   * idle between roots requests, and when the app tells fifty of them at once that their folders
   * changed, each pipe write wakes one of them, which at equal priority takes the CPU from the app
   * before it has told the rest (measured on 2 cores: p99 19 ms for a bare loop at equal priority,
   * 4.7 ms with the children below normal). Priority only matters while the CPU is contended; an idle
   * machine runs them at full speed. The proxy does not use it: there the server does a host's real work.
   */
  lowPriority?: boolean;
  /** What reading a stdio server may cost; the default reads at a rate, with no penalties. */
  inboundLimits?: InboundLimits | undefined;
  /** A confined server's mount descriptors and seccomp filter, opened at each spawn (ConfinedStdio.openDescriptors). */
  childDescriptors?: (() => ChildDescriptors) | undefined;
}

export interface BuiltTransport {
  transport: Transport;
  stderr?: Readable | undefined;
  pid?: () => number | null;
  /** What reading this stdio server may cost (inbound-limits.ts): it says when it limits it. */
  inbound?: InboundLimiter | undefined;
  /** Stdio only: the child's exit code or signal once it has ended. */
  exit?: () => { code: number | null; signal: string | null } | undefined;
  /** Stdio only: writes what was sent in this tick now, not at its end (InPlaceStdioClientTransport.flush). */
  flush?: () => void;
}

/** `config` with its secrets already opened (transport-factory.ts opens them). */
export function buildStdioTransport(config: StdioTransportConfig, options: BuildOptions = {}): BuiltTransport {
  const transport = new InPlaceStdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: 'pipe',
  });
  transport.lowPriority = options.lowPriority ?? false;
  transport.childDescriptors = options.childDescriptors;
  const inbound = new InboundLimiter(options.inboundLimits);
  inbound.install(transport);
  return { transport, stderr: (transport.stderr as Readable | null) ?? undefined, pid: () => transport.pid, inbound, exit: () => transport.exit, flush: () => transport.flush() };
}
