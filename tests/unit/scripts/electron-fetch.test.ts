// `npm start` fetches Electron's binary on first use with electron's own @electron/get and
// install.js. Against a local mirror: a good zip is unpacked where `require('electron')` finds it;
// a silent host, a 404 and a corrupt zip each fail with one clear line and install nothing.
// Runs on a copy of the electron package so the project's own node_modules is never touched.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../../scripts/electron-binary.js';
import { electronPackageDir, fetchElectronBinary } from '../../../scripts/electron-fetch.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { zipFile } from '../../support/zip-file.js';

const realElectron = electronPackageDir();
const { version } = JSON.parse(fs.readFileSync(path.join(realElectron, 'package.json'), 'utf8')) as { version: string };
const binaryName = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : process.platform === 'win32' ? 'electron.exe' : 'electron';
const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
const goodZip = zipFile([
  { name: binaryName, content: '#!/bin/sh\necho stand-in\n', mode: 0o755 },
  { name: 'version', content: `v${version}` },
]);

let electronDir: string;
let server: http.Server | undefined;
const savedEnv = { ...process.env };

/** A copy of the electron package whose checksums.json vouches for `zip`, beside links to its dependencies. */
function fakeElectronPackage(zip: Buffer): string {
  const modules = path.join(tempDir('electron-pkg-'), 'node_modules');
  const dir = path.join(modules, 'electron');
  fs.mkdirSync(dir, { recursive: true });
  for (const file of ['package.json', 'install.js', 'index.js']) fs.copyFileSync(path.join(realElectron, file), path.join(dir, file));
  fs.writeFileSync(path.join(dir, 'checksums.json'), JSON.stringify({ [zipName]: createHash('sha256').update(zip).digest('hex') }));
  for (const dependency of Object.keys((JSON.parse(fs.readFileSync(path.join(realElectron, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies)) {
    fs.mkdirSync(path.dirname(path.join(modules, dependency)), { recursive: true });
    fs.symlinkSync(packageFolder(dependency, realElectron), path.join(modules, dependency), 'dir');
  }
  return dir;
}

/** Where Node would find `name` from `from`: the nearest node_modules/<name> upwards. */
function packageFolder(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

async function mirror(handler: http.RequestListener): Promise<void> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  process.env.ELECTRON_MIRROR = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const serveZip = (zip: Buffer): http.RequestListener => (request, response) => {
  if (request.url !== `/v${version}/${zipName}`) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
  // In pieces, so progress has something to report.
  const half = Math.floor(zip.length / 2);
  response.write(zip.subarray(0, half), () => response.end(zip.subarray(half)));
};

beforeEach(() => {
  electronDir = fakeElectronPackage(goodZip);
  process.env.electron_config_cache = tempDir('electron-cache-');
  delete process.env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  delete process.env.electron_use_remote_checksums;
});

afterEach(async () => {
  process.env = { ...savedEnv };
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  removeTempDirs();
});

describe("fetching Electron's binary on first start", () => {
  it('downloads with progress and unpacks with electron\'s install.js, so the package then finds its binary', async () => {
    await mirror(serveZip(goodZip));
    expect(findElectronBinary(electronDir).found).toBe(false);
    const events: { line: string; percent: number; final: boolean }[] = [];

    await expect(fetchElectronBinary({ electronDir, progress: (event) => events.push(event) })).resolves.toBe(version);

    const found = findElectronBinary(electronDir);
    expect(found).toEqual({ found: true, path: path.join(electronDir, 'dist', binaryName) });
    expect(fs.readFileSync(path.join(electronDir, 'dist', binaryName), 'utf8')).toContain('stand-in');
    expect(fs.readFileSync(path.join(electronDir, 'path.txt'), 'utf8')).toBe(binaryName);
    expect(events.at(-1)).toMatchObject({ final: true, percent: 100, line: expect.stringContaining(`Downloaded Electron ${version}`) });
    expect(events.filter((event) => !event.final).map((event) => event.line)).toContainEqual(expect.stringMatching(/Downloading Electron .*: 100% of/));
  });

  it('gives up on a host that never answers, with the phase and URL, and installs nothing', async () => {
    await mirror(() => {});
    const fetching = fetchElectronBinary({ electronDir, timeouts: { firstByte: 300 } });
    await expect(fetching).rejects.toThrow(new RegExp(`could not download Electron ${version}: no answer within 0\\.3 s \\(http://127\\.0\\.0\\.1:\\d+/v${version}/${zipName}\\)`));
    expect(findElectronBinary(electronDir).found).toBe(false);
    expect(fs.existsSync(path.join(electronDir, 'dist'))).toBe(false);
  });

  it('gives up on a download that stops sending, and installs nothing', async () => {
    await mirror((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': goodZip.length });
      response.write(goodZip.subarray(0, 10));
    });
    await expect(fetchElectronBinary({ electronDir, timeouts: { stall: 300 } })).rejects.toThrow(/could not download Electron .*: the download stalled: no data within 0\.3 s \(http:/);
    expect(findElectronBinary(electronDir).found).toBe(false);
  });

  it('says so when the mirror does not have the file', async () => {
    await mirror((_request, response) => response.writeHead(404).end());
    await expect(fetchElectronBinary({ electronDir })).rejects.toThrow(/could not download Electron .*Response code 404/);
    expect(findElectronBinary(electronDir).found).toBe(false);
  });

  it('refuses a download whose checksum is not electron\'s', async () => {
    await mirror(serveZip(zipFile([{ name: binaryName, content: 'tampered', mode: 0o755 }])));
    await expect(fetchElectronBinary({ electronDir })).rejects.toThrow(/could not download Electron .*checksum/i);
    expect(findElectronBinary(electronDir).found).toBe(false);
  });
});
