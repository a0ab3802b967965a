// Builds the transport of an HTTP (Streamable HTTP) or SSE server, with its configured headers on
// every request. The SDK's HTTP and SSE clients (with their OAuth schemas) were 0.5 of the proxy
// bundle's 1.3 MB: a proxy imports this file only for such a server (upstream.ts).
import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { HttpTransportConfig } from '../../../shared/domain.js';
import type { BuiltTransport } from './stdio-transport-factory.js';

/** `config` with its secrets already opened (transport-factory.ts opens them). */
export function buildHttpTransport(config: HttpTransportConfig): BuiltTransport {
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
