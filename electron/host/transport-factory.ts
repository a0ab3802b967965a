// Builds the SDK transport for a server's config. Stdio children get the SDK's safe default
// environment with the user's variables merged over it, and their stderr is captured.
import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import type { TransportConfig } from '../../shared/domain.js';
import { openTransport, type SecretCodec } from './secret-codec.js';

/**
 * A subclass on purpose: with version negotiation 'auto' the SDK probes the base
 * StdioClientTransport on a throwaway sibling process, spawning every server twice.
 * Subclasses probe in place, on the one process we start.
 */
export class InPlaceStdioClientTransport extends StdioClientTransport {}

export interface BuiltTransport {
  transport: Transport;
  stderr?: Readable | undefined;
  pid?: () => number | null;
}

/**
 * Sealed secrets are opened here, at the last moment; one that cannot be (no codec in this process)
 * throws a SealedSecretError rather than reach the server as `enc:v1:…`.
 */
export function buildTransport(sealedOrPlain: TransportConfig, secrets?: SecretCodec): BuiltTransport {
  const config = openTransport(sealedOrPlain, secrets);
  if (config.type === 'stdio') {
    const transport = new InPlaceStdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: 'pipe',
    });
    return { transport, stderr: (transport.stderr as Readable | null) ?? undefined, pid: () => transport.pid };
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
