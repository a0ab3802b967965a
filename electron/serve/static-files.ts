// Serves the built renderer (vite's outDir) and nothing else: every requested path is decoded,
// checked segment by segment, resolved, and must still be inside the root after realpath.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SECURITY_HEADERS, sendError, sendText } from './http-reply.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export const NOT_BUILT_MESSAGE =
  'The MCP Roots Manager UI has not been built yet. Run `npm run build`, then start `mcp-roots serve` again.\n';

/** Splits a raw request path into safe segments, or undefined when it tries to leave the root. */
export function safeSegments(rawPath: string): string[] | undefined {
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    // `..` and `.` also arrive percent-encoded; separators and drive colons inside a segment are
    // how a Windows path would escape; NUL truncates paths in native code.
    if (segment === '.' || segment === '..' || /[/\\:\0]/.test(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + path.sep);
}

export function createStaticFiles(rootDir: string) {
  const root = path.resolve(rootDir);

  return async function serveStatic(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(res, 405, 'invalid-input', 'Use GET.', { Allow: 'GET, HEAD' });
    }
    const segments = safeSegments(rawPath);
    if (!segments) return sendError(res, 403, 'unauthorized', 'Forbidden path.');
    // Checked per request so a build made while the server runs is picked up.
    const realRoot = await fs.promises.realpath(root).catch(() => undefined);
    const hasIndex = realRoot !== undefined && (await isFile(path.join(realRoot, 'index.html')));
    if (!realRoot || !hasIndex) return sendText(res, 503, NOT_BUILT_MESSAGE);
    const requested = segments.length === 0 ? ['index.html'] : segments;
    const file = path.resolve(realRoot, ...requested);
    const realFile = isInside(realRoot, file) ? await fs.promises.realpath(file).catch(() => undefined) : undefined;
    if (!realFile || !isInside(realRoot, realFile)) return sendError(res, 404, 'not-found', 'Not found.');
    const stat = await fs.promises.stat(realFile).catch(() => undefined);
    if (!stat?.isFile()) return sendError(res, 404, 'not-found', 'Not found.');
    const extension = path.extname(realFile).toLowerCase();
    // Vite's hashed assets never change under one name; everything else must be revalidated.
    const immutable = requested[0] === 'assets' && extension !== '.html';
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
      'Content-Length': stat.size,
      'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (req.method === 'HEAD') return void res.end();
    // pipeline closes the file when the client goes away mid-download.
    await pipeline(fs.createReadStream(realFile), res).catch(() => res.destroy());
  };
}

async function isFile(file: string): Promise<boolean> {
  const stat = await fs.promises.stat(file).catch(() => undefined);
  return stat?.isFile() ?? false;
}
