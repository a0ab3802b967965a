// The wire conventions between `mcp-roots serve` and renderer/src/host-client.ts. The renderer may
// not import from electron/, so host-client.ts repeats these values; a test pairs the two for real.

export const API_CALL_PREFIX = '/api/call/';
export const API_EVENTS_PATH = '/api/events';
/** `POST` with the token as a Bearer: answers with the session cookie (see serve-session.ts). */
export const API_SESSION_PATH = '/api/session';

/** The subprotocol the server selects; the browser refuses a handshake that selects none. */
export const WS_PROTOCOL = 'mcp-roots.v1';

/**
 * A browser WebSocket cannot send an Authorization header, so the token rides in a second offered
 * subprotocol (`mcp-roots.token.<token>`; base64url is valid subprotocol syntax). Unlike a query
 * parameter it never appears in a URL: not in history, access logs or devtools' request line.
 * The server never echoes it back: it selects WS_PROTOCOL.
 */
export const WS_TOKEN_PREFIX = 'mcp-roots.token.';

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
