// The real desktop app, launched through Playwright. Runs wherever Electron's binary is installed;
// elsewhere (ELECTRON_SKIP_BINARY_DOWNLOAD, offline installs) it is skipped and says why.
// Needs `npm run build` first (test:e2e does it) and, on Linux, a display (xvfb-run on CI).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _electron as electron, type ElectronApplication, type Page } from 'playwright-core';
import { findElectronBinary } from '../../scripts/electron-binary.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const root = path.resolve(import.meta.dirname, '../..');
const binary = findElectronBinary();
if (!binary.found) {
  console.log(`Skipping the Electron E2E tests: Electron's binary is not installed here (${binary.reason}).`);
}

describe.skipIf(!binary.found)('desktop app', () => {
  let app: ElectronApplication | undefined;
  let page: Page;

  beforeAll(async () => {
    if (!binary.found) return;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.VITE_DEV_SERVER_URL;
    // Chromium refuses to start as root with its sandbox on (containers); the renderer stays sandboxed.
    const rootOnly = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
    app = await electron.launch({
      executablePath: binary.path,
      args: [...rootOnly, root, '--config-dir', tempDir('mcp-roots-e2e-config-')],
      cwd: root,
      env,
      timeout: 30_000,
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    removeTempDirs();
  });

  it.skipIf(!binary.found)('opens one window titled MCP Roots Manager', async () => {
    expect(app!.windows()).toHaveLength(1);
    expect(await page.title()).toBe('MCP Roots Manager');
  });

  it.skipIf(!binary.found)('gives the page window.rootsManager and no Node', async () => {
    const globals = await page.evaluate(() => {
      const page = globalThis as Record<string, unknown>;
      return { rootsManager: typeof page.rootsManager, require: typeof page.require, process: typeof page.process };
    });
    expect(globals).toEqual({ rootsManager: 'object', require: 'undefined', process: 'undefined' });
  });
});
