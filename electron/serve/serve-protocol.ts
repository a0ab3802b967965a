// The server's side of the wire conventions with the browser UI: the names themselves live once in
// shared/serve-wire.ts; here, how the server reads a token from them.
import { WS_TOKEN_PREFIX } from '../../shared/serve-wire.js';

export { API_CALL_PREFIX, API_EVENTS_PATH, API_SESSION_PATH, WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/serve-wire.js';

/** At most this many request-body bytes per call; more is answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

export function tokenFromSubprotocols(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const offered of header.split(',')) {
    const value = offered.trim();
    if (value.startsWith(WS_TOKEN_PREFIX)) return value.slice(WS_TOKEN_PREFIX.length);
  }
  return undefined;
}

export function tokenFromAuthorization(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
