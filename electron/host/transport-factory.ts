// Builds the SDK transport for a server's config. Stdio children get the SDK's safe default
// environment with the user's variables merged over it, and their stderr is captured.
import { SSEClientTransport, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { TransportConfig } from '../../shared/domain.js';
import { InboundLimiter } from './inbound-limits.js';
import { openTransport, type SecretCodec } from './secret-codec.js';

/**
 * A subclass on purpose: with version negotiation 'auto' the SDK probes the base
 * StdioClientTransport on a throwaway sibling process, spawning every server twice.
 * Subclasses probe in place, on the one process we start.
 */
export class InPlaceStdioClientTransport extends StdioClientTransport {
  /** Below-normal CPU priority for the child, set as soon as it runs (see BuildOptions.lowPriority). */
  lowPriority = false;
  private child: ChildProcess | undefined;

  /**
   * Messages sent in the same tick leave in one write: the answers to a batch of requests wake the
   * server once, not once each (a pipe write that wakes a process cost ~45 µs here under a flood).
   */
  override send(message: JSONRPCMessage): Promise<void> {
    const stdin = (this as unknown as { _process?: { stdin?: Writable | null } })._process?.stdin;
    if (stdin && stdin.writableCorked === 0) {
      stdin.cork();
      process.nextTick(() => stdin.uncork());
    }
    return super.send(message);
  }

  override async start(): Promise<void> {
    await super.start();
    // The SDK keeps its child private and reports its end without the exit code; hold on to the
    // child so a failure can say "exited with code 1" (absent if the SDK renames the field).
    this.child = (this as unknown as { _process?: ChildProcess })._process;
    if (!this.lowPriority || !this.pid) return;
    try {
      os.setPriority(this.pid, os.constants.priority.PRIORITY_BELOW_NORMAL);
    } catch {
      // Not permitted here (some sandboxes): the server runs at normal priority, which only costs latency.
    }
  }

  /** How the child ended, once it has. */
  get exit(): { code: number | null; signal: string | null } | undefined {
    const child = this.child;
    if (!child || (child.exitCode === null && child.signalCode === null)) return undefined;
    return { code: child.exitCode, signal: child.signalCode };
  }
}

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
}

export interface BuiltTransport {
  transport: Transport;
  stderr?: Readable | undefined;
  pid?: () => number | null;
  /** What reading this stdio server may cost (inbound-limits.ts): it says when it limits it. */
  inbound?: InboundLimiter | undefined;
  /** Stdio only: the child's exit code or signal once it has ended. */
  exit?: () => { code: number | null; signal: string | null } | undefined;
}

/**
 * Sealed secrets are opened here, at the last moment; one that cannot be (no codec in this process)
 * throws a SealedSecretError rather than reach the server as `enc:v1:…`.
 */
export function buildTransport(sealedOrPlain: TransportConfig, secrets?: SecretCodec, options: BuildOptions = {}): BuiltTransport {
  const config = openTransport(sealedOrPlain, secrets);
  if (config.type === 'stdio') {
    const transport = new InPlaceStdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: 'pipe',
    });
    transport.lowPriority = options.lowPriority ?? false;
    const inbound = new InboundLimiter();
    inbound.install(transport);
    return { transport, stderr: (transport.stderr as Readable | null) ?? undefined, pid: () => transport.pid, inbound, exit: () => transport.exit };
  }
  const url = new URL(config.url);
  const headers = config.headers;
  // One fetch wrapper carries the configured headers on every request, the SSE stream included.
  const fetchWithHeaders: typeof fetch = (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [key, value] of Object.entries(headers)) merged.set(key, value);
    return fetch(input, { ...init, headers: merged });
  };
  const transport =
    config.type === 'http'
      ? new StreamableHTTPClientTransport(url, { fetch: fetchWithHeaders })
      : new SSEClientTransport(url, { fetch: fetchWithHeaders });
  return { transport };
}
