// Section 8: the UI in Chromium with 1,000 folders x 50 servers (25,000 grants): time to first
// paint of real data, to render the matrix, and to apply a toggle (click -> host -> pushed state
// -> the cell shows it). Needs the built renderer (npm run build) and /usr/bin/chromium.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { RootsHost } from '../../electron/host/roots-host.js';
import { startServeServer } from '../../electron/serve/serve-server.js';
import { benchDir, makeFolders, repoRoot, waitUntil } from './bench-env.js';
import { percentile, type Figure } from './figures.js';

/** A matrix cell's name, with the mode a granted cell adds (": read-write"); anchored (server-1, not server-10). */
function cellName(root: string, server: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^Share ${escape(root)} with ${escape(server)}(: .+)?$`);
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function rendererScale(rootCount: number, serverCount: number, toggles: number): Promise<Figure[]> {
  const rendererDir = path.join(repoRoot, 'dist/renderer');
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) throw new Error('no built renderer: run npm run build first');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}`);
  const host = new RootsHost({ configDir: benchDir('ui'), stateThrottleMs: 20 });
  await host.start();
  const serve = await startServeServer({ host, port: 0, rendererDir });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const { added } = await host.addRoots(makeFolders(rootCount));
    const stdio = { type: 'stdio' as const, command: process.execPath, args: ['--version'], env: {} };
    // Disabled servers: the UI's cost is measured here, not 50 child processes.
    for (let i = 0; i < serverCount; i++) await host.addServer({ name: `server-${i + 1}`, transport: stdio, enabled: false, sharing: true });
    const serverIds = host.getState().servers.map((server) => server.id);
    await host.setGrants(serverIds, added.filter((_, i) => i % 2 === 0).map((root) => root.id), true);
    await waitUntil(() => host.getState().roots.every((root) => root.access.state === 'ok'));

    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' })).newPage();
    const firstName = path.basename(added[0]?.path ?? '');
    const start = performance.now();
    await page.goto(serve.url);
    await page.getByText(firstName, { exact: true }).first().waitFor();
    const firstPaint = performance.now() - start;

    const tabStart = performance.now();
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.getByRole('checkbox', { name: cellName(firstName, 'server-1') }).waitFor();
    const matrix = performance.now() - tabStart;

    const toggleTimes: number[] = [];
    for (let i = 0; i < toggles; i++) {
      const root = added[1 + 2 * i]; // odd folders start unshared
      const name = path.basename(root?.path ?? '');
      const box = page.getByRole('checkbox', { name: cellName(name, 'server-1') });
      await box.scrollIntoViewIfNeeded();
      const clicked = performance.now();
      await box.click();
      await waitUntil(() => host.getState().servers[0]?.grantedRootIds.includes(root?.id ?? '') ?? false);
      toggleTimes.push(performance.now() - clicked);
      if (!(await box.isChecked())) throw new Error(`${name} is not shown as shared after the toggle`);
    }
    return [
      { id: 'ui-first-paint', label: `8. UI first paint with data, ${rootCount} folders x ${serverCount} servers`, value: firstPaint, unit: 'ms', budget: { max: 1000, text: '< 1 s' } },
      { id: 'ui-matrix', label: '8. ... open the access matrix (virtualized)', value: matrix, unit: 'ms' },
      { id: 'ui-toggle-p50', label: `8. ... toggle a cell -> saved by the host, p50 of ${toggles}`, value: percentile(toggleTimes, 50), unit: 'ms' },
    ];
  } finally {
    await browser.close();
    await serve.close();
    await host.stop();
  }
}
