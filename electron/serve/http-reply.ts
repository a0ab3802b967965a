// Every response leaves through here, so every response carries the security headers.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../../shared/result.js';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

type Headers = Record<string, string | number>;

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Headers = {}): void {
  const data = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': data.length,
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(data);
}

/** An error in the same Result shape the contract uses, so the client parses one format. */
export function sendError(res: http.ServerResponse, status: number, code: ErrorCode, message: string, headers: Headers = {}): void {
  sendJson(res, status, { ok: false, error: { code, message } }, headers);
}

export function sendText(res: http.ServerResponse, status: number, text: string, headers: Headers = {}): void {
  const data = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': data.length,
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(data);
}

/** Refuses a WebSocket upgrade: a plain HTTP answer on the raw socket, then close it. */
export function rejectUpgrade(socket: Duplex, status: number, code: ErrorCode, message: string): void {
  const body = JSON.stringify({ ok: false, error: { code, message } });
  const head = [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  socket.end(`${head}\r\n\r\n${body}`);
}
