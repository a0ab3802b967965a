// `npm start` where Electron's binary cannot be had: it tries to fetch it (a mirror on a closed
// port stands in for an unreachable download host), says why it could not, and serves the UI.
// Runs after `npm run build` (test:e2e does it); skipped where the binary is installed, since
// there `npm start` rightly opens the desktop app instead.
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../scripts/electron-binary.js';
import { startChild, stopChildren } from '../support/child-process.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const root = path.resolve(import.meta.dirname, '../..');
const installed = findElectronBinary().found;

afterEach(async () => {
  await stopChildren();
  removeTempDirs();
});

/** A port nothing listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

async function startAndOpen(vars: NodeJS.ProcessEnv) {
  const env: NodeJS.ProcessEnv = { ...process.env, electron_config_cache: tempDir('start-electron-cache-'), ...vars };
  for (const [key, value] of Object.entries(vars)) if (value === undefined) delete env[key];
  const start = startChild(process.execPath, [path.join(root, 'scripts/start.js'), '--no-open', '--port', '0', '--config-dir', tempDir('start-config-')], {
    cwd: root,
    env,
  });
  const [, url] = await start.waitForOutput(/Open: (http:\/\/127\.0\.0\.1:\d+\/\S*)/, 60_000);
  const page = await get(new URL('/', url).href);
  expect(page.status).toBe(200);
  expect(page.body).toContain('<div id="root">');
  expect(await start.stop()).toBe(0);
  return start.stdout();
}

describe.skipIf(installed)('npm start without Electron', () => {
  it('tries to fetch the binary, says why that failed, and serves the UI', async () => {
    const output = await startAndOpen({ ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/`, ELECTRON_SKIP_BINARY_DOWNLOAD: undefined });
    expect(output).toContain("Electron's binary is not here (it has not been fetched yet); fetching it once.");
    expect(output).toMatch(/No desktop app: could not download Electron [\d.]+: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(http:\/\/127\.0\.0\.1:\d+\/v[\d.]+\/electron-v/);
    expect(output).toContain('Starting the same UI headless instead');
  });

  it('does not try when ELECTRON_SKIP_BINARY_DOWNLOAD is set', async () => {
    const output = await startAndOpen({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ELECTRON_MIRROR: 'http://127.0.0.1:1/' });
    expect(output).not.toContain('fetching it once');
    expect(output).toContain('No desktop app: ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is never fetched');
  });
});
