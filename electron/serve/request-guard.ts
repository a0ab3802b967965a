// Who may talk to the server. Loopback binding keeps other machines out; the Host check stops DNS
// rebinding (a foreign site whose name resolves to 127.0.0.1); the Origin check stops other pages
// in the user's browser; the token (or the session cookie it was exchanged for) stops other local
// users and processes.
import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorCode } from '../../shared/result.js';

export interface Denial {
  status: 401 | 403;
  code: ErrorCode;
  message: string;
}

/** Checks Host and Origin. Returns the origin the request was made to when both are ours. */
export function checkSite(headers: IncomingHttpHeaders, port: number): { origin: string } | Denial {
  const host = headers.host?.toLowerCase();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return { status: 403, code: 'unauthorized', message: 'Forbidden host.' };
  }
  const origin = `http://${host}`;
  // Browsers send Origin on every cross-origin request and WebSocket; absent means not a page.
  if (headers.origin !== undefined && headers.origin !== origin) {
    return { status: 403, code: 'unauthorized', message: 'Forbidden origin.' };
  }
  return { origin };
}

/** The answer to a request with neither the token nor a session cookie of ours. */
export const NOT_AUTHORIZED: Denial = {
  status: 401,
  code: 'unauthorized',
  message: 'Missing or wrong token: open the URL `mcp-roots serve` printed.',
};

export function isDenial(value: object): value is Denial {
  return 'status' in value;
}
