// The headless server's gate: loopback binding, token, Host and Origin checks, path traversal,
// transport limits and security headers, all against a real in-process server.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../electron/serve/http-reply.js';
import { MAX_BODY_BYTES } from '../../../electron/serve/serve-protocol.js';
import { NOT_BUILT_MESSAGE } from '../../../electron/serve/static-files.js';
import { call, getState, openEvents, request, startFixture, type Fixture } from './serve-fixture.js';

let fixture: Fixture;
beforeEach(async () => {
  fixture = await startFixture();
});
afterEach(async () => {
  await fixture.close();
});

const errorCode = (body: unknown) => (body as { ok: boolean; error?: { code: string } }).error?.code;

describe('serve: who may call', () => {
  it('binds to 127.0.0.1 only', () => {
    const address = fixture.serve.server.address() as AddressInfo;
    expect(address.address).toBe('127.0.0.1');
    expect(address.family).toBe('IPv4');
    expect(fixture.serve.url).toBe(`http://127.0.0.1:${address.port}/#token=${fixture.serve.token}`);
    expect(fixture.serve.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers 401 without a token', async () => {
    const response = await request(fixture.serve, { method: 'POST', path: '/api/call/state.get', body: '{}', auth: false });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(errorCode(response.json())).toBe('unauthorized');
  });

  it('answers 401 to a wrong token, a prefix of the token, and a non-bearer scheme', async () => {
    const { token } = fixture.serve;
    for (const authorization of [`Bearer ${'x'.repeat(43)}`, `Bearer ${token.slice(0, 20)}`, `Basic ${token}`, `Bearer ${token}x`]) {
      const response = await request(fixture.serve, { method: 'POST', path: '/api/call/state.get', body: '{}', headers: { authorization } });
      expect(response.status, authorization).toBe(401);
    }
  });

  it('answers 403 to a foreign Origin, even with the right token, and changes nothing', async () => {
    const before = await getState(fixture.serve);
    for (const origin of ['http://evil.example', `http://evil.example:${fixture.serve.port}`, 'null', `https://127.0.0.1:${fixture.serve.port}`]) {
      const response = await request(fixture.serve, {
        method: 'POST',
        path: '/api/call/roots.add',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ paths: [fixture.dir] }),
      });
      expect(response.status, origin).toBe(403);
      expect(errorCode(response.json())).toBe('unauthorized');
    }
    const after = await getState(fixture.serve);
    expect(after.roots).toEqual(before.roots);
  });

  it('accepts its own origin under both loopback names', async () => {
    const { port } = fixture.serve;
    for (const name of ['127.0.0.1', 'localhost']) {
      const response = await request(fixture.serve, {
        method: 'POST',
        path: '/api/call/state.get',
        headers: { host: `${name}:${port}`, origin: `http://${name}:${port}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status, name).toBe(200);
    }
  });

  it('answers 403 to a foreign Host (DNS rebinding), for the API and for static files', async () => {
    const { port } = fixture.serve;
    for (const host of [`evil.example:${port}`, '127.0.0.1', `127.0.0.1:${port + 1}`, `localhost.evil.example:${port}`]) {
      const api = await request(fixture.serve, { method: 'POST', path: '/api/call/state.get', headers: { host }, body: '{}' });
      expect(api.status, host).toBe(403);
      const page = await request(fixture.serve, { path: '/', headers: { host } });
      expect(page.status, host).toBe(403);
      expect(page.text).not.toContain('MCP Roots Manager');
    }
  });
});

describe('serve: the token is traded for an HttpOnly, SameSite=Strict session cookie', () => {
  const origin = () => `http://127.0.0.1:${fixture.serve.port}`;

  async function takeCookie(): Promise<string> {
    const response = await request(fixture.serve, { method: 'POST', path: '/api/session', headers: { origin: origin() } });
    expect(response.status).toBe(204);
    const setCookie = response.headers['set-cookie']?.[0] ?? '';
    expect(setCookie).toMatch(new RegExp(`^mcp-roots-session-${fixture.serve.port}=[\\w-]{43}; HttpOnly; SameSite=Strict; Path=/api$`));
    const pair = setCookie.split(';')[0]!;
    // The cookie is a session of its own, not the token.
    expect(pair).not.toContain(fixture.serve.token);
    return pair;
  }

  it('a page with the cookie and our Origin may call and listen, without the token', async () => {
    const cookie = await takeCookie();
    const response = await request(fixture.serve, {
      method: 'POST',
      path: '/api/call/state.get',
      headers: { cookie, origin: origin(), 'content-type': 'application/json' },
      body: '{}',
      auth: false,
    });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ ok: true });
    const events = await openEvents(fixture.serve, { cookie, origin: origin() }, ['mcp-roots.v1']);
    await events.next((message) => message.event === 'state');
    events.socket.close();
  });

  it('the cookie counts only with our Origin, cannot mint another session, and a made-up one is refused', async () => {
    const cookie = await takeCookie();
    const post = (headers: Record<string, string>, target = '/api/call/state.get') =>
      request(fixture.serve, { method: 'POST', path: target, headers: { 'content-type': 'application/json', ...headers }, body: '{}', auth: false });
    // No Origin: not a page of ours (a script that stole nothing has no cookie; one that has it must also be us).
    expect((await post({ cookie })).status).toBe(401);
    // Cookies ignore ports: a page on another 127.0.0.1 port gets ours sent along, and is refused.
    expect((await post({ cookie, origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await post({ cookie: `mcp-roots-session-${fixture.serve.port}=${'A'.repeat(43)}`, origin: origin() })).status).toBe(401);
    expect((await post({ cookie, origin: origin() }, '/api/session')).status).toBe(401);
    await expect(openEvents(fixture.serve, { cookie }, ['mcp-roots.v1'])).rejects.toMatchObject({ status: 401 });
  });
});

describe('serve: transport limits', () => {
  it('answers 405 to a wrong method', async () => {
    const response = await request(fixture.serve, { method: 'GET', path: '/api/call/state.get' });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(errorCode(response.json())).toBe('invalid-input');
    const put = await request(fixture.serve, { method: 'PUT', path: '/index.html', body: 'x' });
    expect(put.status).toBe(405);
  });

  it('answers 413 to a body over the limit, before reading it', async () => {
    const before = await getState(fixture.serve);
    const body = JSON.stringify({ paths: ['x'.repeat(MAX_BODY_BYTES)] });
    const response = await call(fixture.serve, 'roots.add', body, true);
    expect(response.status).toBe(413);
    expect(errorCode(response.json())).toBe('too-long');
    expect((await getState(fixture.serve)).revision).toBe(before.revision);
  });

  it('answers a typed invalid-input to bad JSON', async () => {
    for (const body of ['{', '{"paths": [', 'undefined', '\u0000']) {
      const response = await call(fixture.serve, 'roots.add', body, true);
      expect(response.status, body).toBe(400);
      expect(response.json()).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
  });

  it('answers 415 to a non-JSON content type (a cross-site form post)', async () => {
    const response = await request(fixture.serve, {
      method: 'POST',
      path: '/api/call/state.get',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=b',
    });
    expect(response.status).toBe(415);
  });

  it('answers 404 with a typed error to an unknown channel or API', async () => {
    const unknown = await call(fixture.serve, 'roots.nuke', {});
    expect(unknown.status).toBe(404);
    expect(errorCode(unknown.json())).toBe('invalid-input');
    const proto = await call(fixture.serve, '__proto__', {});
    expect(proto.status).toBe(404);
    const api = await request(fixture.serve, { method: 'POST', path: '/api/other', body: '{}' });
    expect(api.status).toBe(404);
  });
});

describe('serve: static files', () => {
  it('serves index.html with strict security headers', async () => {
    const response = await request(fixture.serve, { path: '/', auth: false });
    expect(response.status).toBe(200);
    expect(response.text).toContain('MCP Roots Manager');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    const asset = await request(fixture.serve, { path: '/assets/app-abc123.js', auth: false });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('carries the security headers on API answers too', async () => {
    const response = await call(fixture.serve, 'state.get', {});
    expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses path traversal, plain and percent-encoded', async () => {
    const attempts = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E/secret.txt',
      '/assets/../../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%2e%2e%2f%2e%2e%2fpackage.json',
      '/../package.json',
      '/index.html%00.js',
      '/%',
    ];
    for (const attempt of attempts) {
      const response = await request(fixture.serve, { path: attempt, auth: false });
      expect([400, 403, 404], attempt).toContain(response.status);
      expect(response.text, attempt).not.toContain('TOP-SECRET');
    }
    expect((await request(fixture.serve, { path: '/../secret.txt' })).status).toBe(403);
    expect((await request(fixture.serve, { path: '/%2e%2e/secret.txt' })).status).toBe(403);
  });

  it('does not follow a symlink out of the renderer folder', async () => {
    const link = path.join(fixture.rendererDir, 'leak.txt');
    try {
      fs.symlinkSync(path.join(fixture.dir, 'secret.txt'), link);
    } catch {
      return; // No symlink permission (Windows without developer mode): nothing to test.
    }
    const response = await request(fixture.serve, { path: '/leak.txt', auth: false });
    expect(response.status).toBe(404);
    expect(response.text).not.toContain('TOP-SECRET');
  });

  it('answers 404 to a missing file and 503 with a hint when the UI is not built', async () => {
    expect((await request(fixture.serve, { path: '/nope.js', auth: false })).status).toBe(404);
    fs.rmSync(path.join(fixture.rendererDir, 'index.html'));
    const response = await request(fixture.serve, { path: '/', auth: false });
    expect(response.status).toBe(503);
    expect(response.text).toBe(NOT_BUILT_MESSAGE);
    expect(response.text).toContain('npm run build');
  });
});
