// One isolated UI session per test: a fresh config dir, a real RootsHost with real MCP servers, the
// headless server in front of it, and a real Chromium showing the built renderer.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach } from 'vitest';
import { RootsHost } from '../../electron/host/roots-host.js';
import type { SandboxSupport } from '../../electron/host/sandbox/sandbox-probe.js';
import type { SecretCodec } from '../../electron/host/registry/secret-codec.js';
import { startServeServer, type ServeServer } from '../../electron/serve/serve-server.js';
import { tempDir } from '../support/temp-dirs.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const rendererDir = path.join(repoRoot, 'dist/renderer');
export const screenshotDir = path.join(repoRoot, 'test-results/screenshots');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface UiSession {
  host: RootsHost;
  serve: ServeServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  configDir: string;
  /** Page errors and console errors seen since the last check; a test may read them, never ignore them. */
  readonly problems: string[];
  /**
   * Problems the test causes on purpose, from now until the session closes: the host going away
   * makes the browser log each failed reconnect, and it keeps trying after the test's last check.
   * Those seen so far and those still to come are set aside, and returned by `seen()` so the test
   * asserts they happened; any other problem still fails it.
   */
  expectProblems(pattern: RegExp): { seen(): readonly string[] };
  close(): Promise<void>;
}

/**
 * Any page error or console error fails the test during which it happened. Registered here, at the
 * top of every test file that imports the harness, so no test can forget it: a page that throws
 * (a blank screen for the person) must never pass as a warning in the log.
 */
const sessions = new Set<UiSession & { closed: boolean }>();
function failOnProblems(when: string): void {
  const found = [...sessions].flatMap((session) => session.problems.splice(0));
  for (const session of sessions) if (session.closed) sessions.delete(session);
  if (found.length > 0) throw new Error(`The page reported errors ${when}:\n${found.join('\n')}`);
}
// After hooks run in reverse order of registration: these run after the test file's own, which
// close the sessions, so errors raised while closing are caught too.
afterEach(() => failOnProblems('during this test'));
afterAll(() => failOnProblems('after the last test'));

export interface UiSessionOptions {
  locale?: string;
  viewport?: { width: number; height: number };
  /** How fast a failing server is retried (the default backoff reaches 30 s). */
  reconnectDelaysMs?: readonly number[];
  /**
   * How long the 2026-07-28 probe waits for its answer (3 s by default). A test that shows the era's
   * reason raises it: at a load of 25 a 2025-only server may answer after 3 s, and the reason is then
   * rightly "no answer in time" instead of the one the test is about.
   */
  probeTimeoutMs?: number;
  /** Clipboard access for the page (Copy buttons). */
  clipboard?: boolean;
  /** The sandbox probe the host's servers use (a probe made without bwrap on PATH: advisory). */
  sandboxSupport?: SandboxSupport;
  /** The OS keychain the host seals secrets with (none given: no keychain, secrets in clear). */
  secrets?: SecretCodec;
  /** How long a restart waits for running calls (30 s by default): a test that looks at a drain holds it open longer. */
  drainLimitMs?: number;
  /** false: the app shows its servers but starts none (what it says of one then comes from another app's proxy). */
  runServers?: boolean;
}

export async function startUiSession(options: UiSessionOptions = {}): Promise<UiSession> {
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error(`No built renderer in ${rendererDir}: run \`npm run build:renderer\` first (test:e2e does).`);
  }
  const configDir = tempDir('mcp-roots-ui-config-');
  // Fast probes so a deleted folder shows up within the test's patience.
  const host = new RootsHost({
    configDir,
    stateThrottleMs: 20,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.runServers === false ? { runServers: false } : {}),
    connection: {
      ...(options.reconnectDelaysMs ? { reconnectDelaysMs: options.reconnectDelaysMs } : {}),
      ...(options.probeTimeoutMs ? { probeTimeoutMs: options.probeTimeoutMs } : {}),
      ...(options.sandboxSupport ? { sandboxSupport: options.sandboxSupport } : {}),
      ...(options.drainLimitMs ? { drainLimitMs: options.drainLimitMs } : {}),
    },
  });
  await host.start();
  const serve = await startServeServer({ host, port: 0, rendererDir });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1360, height: 860 },
    locale: options.locale ?? 'en-US',
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const problems: string[] = [];
  const expected: { pattern: RegExp; seen: string[] }[] = [];
  const report = (problem: string): void => {
    const match = expected.find((entry) => entry.pattern.test(problem));
    (match ? match.seen : problems).push(problem);
  };
  page.on('pageerror', (error) => report(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') report(`console: ${message.text()}`);
  });
  await page.goto(serve.url);
  const session: UiSession & { closed: boolean } = {
    closed: false,
    host,
    serve,
    browser,
    context,
    page,
    configDir,
    problems,
    expectProblems(pattern) {
      const entry = { pattern, seen: problems.filter((problem) => pattern.test(problem)) };
      problems.splice(0, problems.length, ...problems.filter((problem) => !pattern.test(problem)));
      expected.push(entry);
      return { seen: () => entry.seen };
    },
    async close() {
      session.closed = true;
      await browser.close().catch(() => {});
      await serve.close().catch(() => {});
      await host.stop().catch(() => {});
    },
  };
  sessions.add(session);
  return session;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
