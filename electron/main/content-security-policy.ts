// The app's pages get a strict CSP from the main process, so a page cannot loosen it.
import type { Session } from 'electron';

/** Strict in production; in development Vite needs its inline React-refresh preamble, injected styles and HMR socket. */
export function contentSecurityPolicy(devServerOrigin?: string): string {
  const dev = devServerOrigin !== undefined;
  const socket = dev ? devServerOrigin.replace(/^http/, 'ws') : '';
  const directives = [
    "default-src 'none'",
    dev ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    dev ? `connect-src 'self' ${socket}` : "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ];
  return directives.join('; ');
}

/** Replaces any CSP on responses for our own pages (dev server included) with ours. */
export function setupContentSecurityPolicy(session: Session, isAppUrl: (url: string) => boolean, csp: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppUrl(details.url)) {
      callback({});
      return;
    }
    const responseHeaders: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') responseHeaders[name] = value;
    }
    responseHeaders['Content-Security-Policy'] = [csp];
    callback({ responseHeaders });
  });
}
