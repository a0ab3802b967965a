// `mcp-roots serve` in-process: prints a working URL, stops cleanly on request, reports bad ports.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runServe } from '../../../electron/serve/run-serve.js';
import { waitFor } from './serve-fixture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-roots-run-serve-'));
  dirs.push(dir);
  return dir;
}

describe('runServe', () => {
  it('serves until stopped, prints the tokened URL, and exits 0', async () => {
    const dir = tempDir();
    const out = capture();
    const err = capture();
    const stop = new AbortController();
    const running = runServe({
      configDir: path.join(dir, 'config'),
      port: '0',
      open: false,
      rendererDir: path.join(dir, 'renderer'),
      out: out.stream,
      err: err.stream,
      stop: stop.signal,
      handleSignals: false,
    });
    try {
      await waitFor(() => /#token=/.test(out.text()));
      const match = /(http:\/\/127\.0\.0\.1:(\d+))\/#token=([\w-]+)/.exec(out.text());
      expect(match).not.toBeNull();
      const [, origin, , token] = match!;
      const response = await fetch(`${origin}/api/call/state.get`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(await response.json()).toMatchObject({ ok: true, value: { roots: [] } });
      const page = await fetch(`${origin}/`);
      expect(page.status).toBe(503);
    } finally {
      stop.abort();
    }
    expect(await running).toBe(0);
    expect(err.text()).toBe('');
  });

  it('rejects a malformed --port with exit code 2', async () => {
    const err = capture();
    const code = await runServe({ configDir: tempDir(), port: 'eighty', open: false, err: err.stream, handleSignals: false });
    expect(code).toBe(2);
    expect(err.text()).toContain('--port');
  });

  it('exits 1 with a hint when the requested port is busy', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const err = capture();
      const code = await runServe({ configDir: tempDir(), port: String(port), open: false, err: err.stream, handleSignals: false });
      expect(code).toBe(1);
      expect(err.text()).toContain(`port ${port} is in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
