// The wire between `mcp-roots serve` and the browser UI (renderer/src/host-client.ts): paths and
// WebSocket subprotocols, written once here for both sides.

export const API_CALL_PREFIX = '/api/call/';
export const API_EVENTS_PATH = '/api/events';
/** `POST` with the token as a Bearer: answers with the session cookie (see electron/serve/serve-session.ts). */
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
