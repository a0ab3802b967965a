// `mcp-roots serve` in-process: prints a working URL, stops cleanly on request, reports bad ports.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runServe } from '../../../electron/serve/run-serve.js';
import { waitFor as waitUntil } from './serve-fixture.js';
import { waitFor } from '../../support/wait-for.js';

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
      await waitUntil(() => /#token=/.test(out.text()));
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

  describe('opening the browser never puts the token on a command line', () => {
    /** A real opener on PATH that records its argv (what `ps` shows), and the file it was given. */
    function fakeOpener(dir: string): { bin: string; recorded: () => { argv: string[]; mode: string; content: string } | undefined } {
      const bin = path.join(dir, 'bin');
      fs.mkdirSync(bin);
      const record = path.join(dir, 'opener-record');
      const script = [
        '#!/bin/sh',
        // argv as the kernel holds it: exactly what any local user can read in /proc/PID/cmdline.
        `tr '\\0' '\\n' < /proc/$$/cmdline > "${record}.argv"`,
        `stat -c %a "$1" > "${record}.mode"`,
        `cat "$1" > "${record}.content"`,
        `mv "${record}.argv" "${record}.done"`,
      ].join('\n');
      fs.writeFileSync(path.join(bin, 'xdg-open'), `${script}\n`, { mode: 0o755 });
      return {
        bin,
        recorded: () => {
          if (!fs.existsSync(`${record}.done`)) return undefined;
          return {
            argv: fs.readFileSync(`${record}.done`, 'utf8').split('\n').filter(Boolean),
            mode: fs.readFileSync(`${record}.mode`, 'utf8').trim(),
            content: fs.readFileSync(`${record}.content`, 'utf8'),
          };
        },
      };
    }

    it.each([
      ['in XDG_RUNTIME_DIR', true],
      ['in a private temp folder without XDG_RUNTIME_DIR', false],
    ])('opens a 0600 redirect file %s, prints the URL only to the terminal, and removes the file once the page has its cookie', async (_label, withRuntimeDir) => {
      const dir = tempDir();
      const runtime = path.join(dir, 'runtime');
      fs.mkdirSync(runtime, { mode: 0o700 });
      const opener = fakeOpener(dir);
      const out = capture();
      const stop = new AbortController();
      const env: NodeJS.ProcessEnv = { PATH: `${opener.bin}:${process.env.PATH ?? ''}`, DISPLAY: ':99' };
      if (withRuntimeDir) env.XDG_RUNTIME_DIR = runtime;
      const running = runServe({
        configDir: path.join(dir, 'config'),
        port: '0',
        open: true,
        rendererDir: path.join(dir, 'renderer'),
        out: out.stream,
        err: capture().stream,
        stop: stop.signal,
        handleSignals: false,
        env,
      });
      try {
        const recorded = await waitFor(opener.recorded, { what: 'the opener to run', timeoutMs: 20_000 });
        const [, origin, token] = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)/.exec(out.text())!;
        expect(token!.length).toBeGreaterThan(20);
        // The opener's argv: a file path, never the token or the URL.
        expect(recorded.argv.join(' ')).not.toContain(token);
        expect(recorded.argv.join(' ')).not.toContain('127.0.0.1');
        const file = recorded.argv.at(-1)!;
        expect(path.basename(file)).toMatch(/^mcp-roots-serve-\d+-open\.html$/);
        if (withRuntimeDir) expect(path.dirname(file)).toBe(runtime);
        else expect((fs.statSync(path.dirname(file)).mode & 0o777).toString(8)).toBe('700');
        expect(recorded.mode).toBe('600');
        // The file redirects to the tokened URL.
        expect(recorded.content).toContain(`${origin}/#token=${token}`);

        // The page's first load trades the token for its cookie: the file is no longer needed.
        const session = await fetch(`${origin}/api/session`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
        expect(session.status).toBe(204);
        await waitFor(() => !fs.existsSync(file), { what: 'the redirect file to be removed' });
        if (!withRuntimeDir) expect(fs.existsSync(path.dirname(file))).toBe(false);
      } finally {
        stop.abort();
      }
      expect(await running).toBe(0);
    });
  });
});
