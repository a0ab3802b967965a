// Serves the built renderer (dist/renderer) on app://renderer/, with the CSP on every response and
// no way to read a file outside that folder: not by `..`, not through a symlink (the file's
// realpath must be inside the folder's realpath, as in electron/serve/static-files.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import { protocol, type Session } from 'electron';
import { APP_HOST, APP_SCHEME } from './renderer-location.js';

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** Must run before the app is ready: a standard, secure scheme behaves like https (origin, storage, modules). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
  ]);
}

export function serveRenderer(session: Session, rendererDir: string, csp: string): void {
  session.protocol.handle(APP_SCHEME, (request) => rendererResponse(rendererDir, request.url, csp));
}

/** The response for one app:// URL. Exported for tests: this is where path traversal is refused. */
export async function rendererResponse(rendererDir: string, url: string, csp: string): Promise<Response> {
  const named = resolveRendererFile(rendererDir, url);
  const file = named === undefined ? undefined : await realFileInside(rendererDir, named);
  if (file === undefined) return plain(404, 'Not found');
  let body: Buffer;
  try {
    body = await fs.readFile(file);
  } catch {
    return plain(404, 'Not found');
  }
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: {
      'Content-Type': MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    },
  });
}

/** The file an app:// URL names, or undefined when it is not ours or escapes the renderer folder. */
export function resolveRendererFile(rendererDir: string, url: string): string | undefined {
  let pathname: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return undefined;
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0')) return undefined;
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${pathname}`);
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return file;
}

/** The file's realpath when it is inside the folder's realpath (symlinks resolved on both sides). */
async function realFileInside(rendererDir: string, file: string): Promise<string | undefined> {
  try {
    const [root, real] = await Promise.all([fs.realpath(rendererDir), fs.realpath(file)]);
    const relative = path.relative(root, real);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? real : undefined;
  } catch {
    return undefined;
  }
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
