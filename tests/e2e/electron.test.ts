// The real desktop app, launched through Playwright. Runs wherever Electron's binary is installed;
// elsewhere (this CI: only the npm registry is reachable, and Electron 45 fetches its binary from
// GitHub) it is skipped and says why. Needs `npm run build` first (test:e2e does it) and, on
// Linux, a display (xvfb-run on CI). The packaged app is checked by tests/pack/pack-smoke.test.ts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _electron as electron, type ElectronApplication, type Page } from 'playwright-core';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);

/**
 * Electron's binary when it is installed. Read from the electron package's path.txt, never
 * through require('electron'): since Electron 45 that starts a download when the binary is missing.
 */
function installedElectron(): { found: true; path: string; version: string } | { found: false; reason: string } {
  const packageDir = path.dirname(require.resolve('electron/package.json'));
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const pathFile = path.join(packageDir, 'path.txt');
  if (!fs.existsSync(pathFile)) {
    return { found: false, reason: `Electron ${version}'s binary was never fetched (no node_modules/electron/path.txt; \`npx install-electron\` fetches it)` };
  }
  const binary = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(packageDir, 'dist'), fs.readFileSync(pathFile, 'utf8').trim());
  if (!fs.existsSync(binary)) return { found: false, reason: `Electron ${version}'s binary is missing at ${binary}` };
  return { found: true, path: binary, version };
}

const binary = installedElectron();
if (!binary.found) {
  console.log(`Skipping the Electron E2E tests: ${binary.reason}.`);
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

  it.skipIf(!binary.found)('runs the installed Electron (45) and opened the window, not the command line', async () => {
    const electronVersion = await app!.evaluate(() => process.versions.electron);
    expect(electronVersion).toBe(binary.found ? binary.version : 'not installed');
    expect(electronVersion.split('.')[0]).toBe('45');
  });

  it.skipIf(!binary.found)('gives the page window.rootsManager and no Node', async () => {
    const globals = await page.evaluate(() => {
      const page = globalThis as Record<string, unknown>;
      return { rootsManager: typeof page.rootsManager, require: typeof page.require, process: typeof page.process };
    });
    expect(globals).toEqual({ rootsManager: 'object', require: 'undefined', process: 'undefined' });
  });
});
