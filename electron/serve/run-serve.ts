// `mcp-roots serve`: one RootsHost behind the headless server until SIGINT/SIGTERM/SIGHUP. Resolves with
// the exit code only after the server is closed and the host (with its child servers) is stopped.
import { claimAppHost, describeHolder, type AppHostClaim } from '../host/status/app-host-claim.js';
import { openRegistryCodec } from '../host/registry/keyring-codec.js';
import { RootsHost } from '../host/roots-host.js';
import { openBrowser } from './open-browser.js';
import { startServeServer, type ServeServer } from './serve-server.js';

/** Fixed so a bookmark survives restarts (the token does not); busy means a random port. */
export const DEFAULT_PORT = 8765;

export interface RunServeOptions {
  configDir: string;
  /** As typed on the command line; undefined means DEFAULT_PORT or, if busy, any free port. */
  port: string | undefined;
  /**
   * Serve even though the desktop app or another serve runs this registry's servers (each server
   * then runs twice). Only with an explicit port: the default one is the first's bookmark.
   */
  allowSecond?: boolean;
  open: boolean;
  rendererDir?: string;
  out?: NodeJS.WritableStream;
  err?: NodeJS.WritableStream;
  /** Stops the server like a signal does (for tests and embedders). */
  stop?: AbortSignal;
  /** Off for in-process tests: no process signal handlers, no forced exit. */
  handleSignals?: boolean;
  /** The environment the browser opener sees (PATH, DISPLAY, XDG_RUNTIME_DIR); tests pass their own. */
  env?: NodeJS.ProcessEnv;
}

export async function runServe(options: RunServeOptions): Promise<number> {
  const out = options.out ?? process.stdout;
  const err = options.err ?? process.stderr;
  const port = parsePort(options.port);
  if (port === undefined) {
    err.write(`mcp-roots: --port takes a number from 0 to 65535, got "${options.port}".\n`);
    return 2;
  }

  if (options.allowSecond === true && options.port === undefined) {
    err.write('mcp-roots: --allow-second needs --port PORT (the default port is the first one\'s). See `mcp-roots serve --help`.\n');
    return 2;
  }
  const claimed = claimAppHost(options.configDir, 'serve');
  let claim: AppHostClaim | undefined;
  if (claimed.ok) {
    claim = claimed.claim;
  } else if (!(options.allowSecond === true && options.port !== undefined)) {
    err.write(
      `mcp-roots: ${describeHolder(claimed.holder)} already runs the servers of this registry; a second host would run each of them twice.\n` +
        `Use that one, or stop it first. To run a second one anyway: mcp-roots serve --port PORT --allow-second\n`,
    );
    return 1;
  }

  const host = new RootsHost({ configDir: options.configDir, secrets: await openRegistryCodec(options.configDir), publishStatusAs: 'serve' });
  let serve: ServeServer;
  try {
    await host.start();
    serve = await listen(host, port, options.port === undefined, options.rendererDir);
  } catch (error) {
    await host.stop().catch(() => {});
    claim?.release();
    err.write(`mcp-roots: cannot serve: ${describe(error, port)}\n`);
    return 1;
  }

  claim?.setUrl(serve.origin);
  // The URL (with its token) goes to the terminal only: the browser is opened on a private file.
  out.write(`MCP Roots Manager is serving on ${serve.origin}\nOpen: ${serve.url}\nPress Ctrl+C to stop.\n`);
  const opened = options.open ? openBrowser(serve.url, process.platform, options.env ?? process.env) : undefined;
  if (opened && !opened.launched) out.write('(No browser could be opened here: open the URL above yourself.)\n');
  // Once a page has exchanged the token for its cookie, the file holding the token has done its job.
  serve.onSession(() => opened?.redirect?.remove());

  await waitForStop(options);
  out.write('Stopping…\n');
  let code = 0;
  opened?.redirect?.remove();
  try {
    await serve.close();
    await host.stop();
  } catch (error) {
    err.write(`mcp-roots: error while stopping: ${describe(error, port)}\n`);
    code = 1;
  }
  claim?.release();
  if (options.handleSignals !== false) {
    // A stray handle must not keep a stopped server's process alive; unref'd, so a clean exit wins.
    setTimeout(() => process.exit(code), 3000).unref();
  }
  return code;
}

async function listen(host: RootsHost, port: number, fallback: boolean, rendererDir: string | undefined): Promise<ServeServer> {
  const options = rendererDir === undefined ? {} : { rendererDir };
  try {
    return await startServeServer({ host, port, ...options });
  } catch (error) {
    if (!fallback || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startServeServer({ host, port: 0, ...options });
  }
}

function waitForStop(options: RunServeOptions): Promise<void> {
  return new Promise((resolve) => {
    // SIGHUP too: a closed terminal stops it the way Ctrl+C does (its servers stopped, their placeholders removed).
    const signals: NodeJS.Signals[] = options.handleSignals === false ? [] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const done = () => {
      for (const signal of signals) process.off(signal, done);
      options.stop?.removeEventListener('abort', done);
      // A second Ctrl+C while stopping means "now"; not the first one arriving twice (the terminal
      // sends it to the whole process group, and `npm start`'s launcher passes it on as well).
      const stoppingSince = Date.now();
      for (const signal of signals) {
        const now = () => (Date.now() - stoppingSince < 1000 ? process.once(signal, now) : process.exit(130));
        process.once(signal, now);
      }
      resolve();
    };
    for (const signal of signals) process.once(signal, done);
    if (options.stop?.aborted) return done();
    options.stop?.addEventListener('abort', done, { once: true });
  });
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(value)) return undefined;
  const port = Number(value);
  return port <= 65_535 ? port : undefined;
}

function describe(error: unknown, port: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `port ${port} is in use (try --port 0 for any free port).`;
  if (code === 'EACCES') return `no permission to listen on port ${port}.`;
  return error instanceof Error ? error.message : String(error);
}
