// Where the window's UI comes from, and which URLs count as "ours" for the sender check, the CSP
// and event delivery. Production pages are served from app://renderer/ (a custom protocol gives a
// real origin and response headers, which file:// has neither of); development uses Vite's server.

export const APP_SCHEME = 'app';
export const APP_HOST = 'renderer';

export interface RendererLocation {
  /** The first URL the window loads. */
  entryUrl: string;
  /** Set when the UI comes from the Vite dev server: the CSP must allow its HMR socket. */
  devServerOrigin?: string;
  isAppUrl(url: string): boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function rendererLocation(options: { devServerUrl?: string | undefined; isPackaged: boolean }): RendererLocation {
  // A packaged app never loads a URL from the environment: that would hand the preload to any page.
  if (options.devServerUrl && !options.isPackaged) return devServerLocation(options.devServerUrl);
  return {
    entryUrl: `${APP_SCHEME}://${APP_HOST}/index.html`,
    isAppUrl: (url) => {
      const parsed = parseUrl(url);
      return parsed !== undefined && parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
    },
  };
}

function devServerLocation(devServerUrl: string): RendererLocation {
  const parsed = parseUrl(devServerUrl);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !LOOPBACK_HOSTS.has(parsed.hostname)) {
    throw new Error(`VITE_DEV_SERVER_URL must be an http(s) URL on localhost, got: ${devServerUrl.slice(0, 200)}`);
  }
  const origin = parsed.origin;
  return {
    entryUrl: parsed.href,
    devServerOrigin: origin,
    isAppUrl: (url) => parseUrl(url)?.origin === origin,
  };
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
