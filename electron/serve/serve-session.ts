// The token printed by `mcp-roots serve` is exchanged, on the page's first load, for a session
// cookie the page's scripts cannot read (HttpOnly) and no other site can send (SameSite=Strict):
// the token then lives in no URL, no storage and no page variable. Each exchange mints its own
// random session id, so the cookie is not the token and dies with this serve process.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { tokenMatches } from './serve-token.js';

/** Past this many live sessions the oldest is forgotten (each page load of a new tab makes one). */
const MAX_SESSIONS = 64;

export class ServeSessions {
  private readonly ids: string[] = [];
  /** Cookies are per host, not per port: the port in the name keeps two serves on one host apart. */
  readonly cookieName: string;

  constructor(port: number) {
    this.cookieName = `mcp-roots-session-${port}`;
  }

  /** Mints a session and returns its Set-Cookie header value. */
  create(): string {
    const id = randomBytes(32).toString('base64url');
    this.ids.push(id);
    if (this.ids.length > MAX_SESSIONS) this.ids.shift();
    // No Max-Age: a session cookie, gone when the browser closes; Path=/api: never sent for pages.
    return `${this.cookieName}=${id}; HttpOnly; SameSite=Strict; Path=/api`;
  }

  /** True when the request carries one of our session cookies. Constant-time per candidate. */
  matches(headers: IncomingHttpHeaders): boolean {
    const given = cookieValue(headers.cookie, this.cookieName);
    if (given === undefined) return false;
    let found = false;
    for (const id of this.ids) found = tokenMatches(given, id) || found;
    return found;
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
