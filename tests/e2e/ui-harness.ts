// One isolated UI session per test: a fresh config dir, a real RootsHost with real MCP servers, the
// headless server in front of it, and a real Chromium showing the built renderer.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { RootsHost } from '../../electron/host/roots-host.js';
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
  close(): Promise<void>;
}

export async function startUiSession(options: { locale?: string; viewport?: { width: number; height: number } } = {}): Promise<UiSession> {
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error(`No built renderer in ${rendererDir}: run \`npm run build:renderer\` first (test:e2e does).`);
  }
  const configDir = tempDir('mcp-roots-ui-config-');
  // Fast probes so a deleted folder shows up within the test's patience.
  const host = new RootsHost({ configDir, stateThrottleMs: 20 });
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
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.goto(serve.url);
  return {
    host,
    serve,
    browser,
    context,
    page,
    configDir,
    async close() {
      await browser.close().catch(() => {});
      await serve.close().catch(() => {});
      await host.stop().catch(() => {});
      if (problems.length > 0) console.warn(`Browser problems during the session:\n${problems.join('\n')}`);
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
