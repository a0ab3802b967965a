// A stand-in for Electron's Linux dist folder, for packing where Electron's binary cannot be
// downloaded (this CI: only the npm registry is reachable). electron-builder takes it as
// `electronDist`: it copies the folder, renames `electron` to the app's executable, writes
// resources/app.asar and flips the fuses in place. So the stand-in carries what those steps need:
//  - `electron`: a shell script whose comment holds the fuse wire exactly as Electron's binary
//    does (sentinel, wire version 1, length, one byte per fuse), with Electron's default states;
//  - `stand-in-main.cjs`: what the script runs, with this machine's Node. It does what Electron
//    does with a packaged app as far as plain Node can: reads its own fuse wire, honours runAsNode
//    (ELECTRON_RUN_AS_NODE) and onlyLoadAppFromAsar, loads package.json's `main` from
//    resources/app.asar, and sets the process facts the app reads (argv without a script,
//    execPath = the executable, versions.electron, resourcesPath). It cannot run Chromium: only
//    what the app does before a window (the command line, `proxy`) can run on it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** @electron/fuses' sentinel: the fuse wire follows it in every Electron binary since 12. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Wire order of fuse version 1 (@electron/fuses FuseV1Options). */
export const FUSE_ORDER = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
];
/** An unflipped Electron: '1' enabled, '0' disabled. */
export const ELECTRON_DEFAULT_FUSES = '10110001';

const SHIM = String.raw`'use strict';
// Written by scripts/pack/stand-in-electron.js: Electron's packaged-app start, in plain Node.
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const asar = require(ASAR_MODULE);

const SENTINEL = ${JSON.stringify(FUSE_SENTINEL)};
const ORDER = ${JSON.stringify(FUSE_ORDER)};
const [executable, ...args] = process.argv.slice(2);

function fuses() {
  const binary = fs.readFileSync(executable);
  const at = binary.indexOf(SENTINEL);
  if (at === -1) throw new Error('no fuse wire in ' + executable);
  const wire = at + SENTINEL.length;
  const states = {};
  ORDER.forEach((name, index) => (states[name] = String.fromCharCode(binary[wire + 2 + index])));
  return states;
}

const fuse = fuses();
if (process.env.ELECTRON_RUN_AS_NODE && fuse.runAsNode === '1') {
  // Electron with runAsNode on behaves as Node when asked.
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const resourcesPath = path.join(path.dirname(executable), 'resources');
const archive = path.join(resourcesPath, 'app.asar');
let appDir;
if (fs.existsSync(archive)) {
  // Node cannot read inside an asar: unpack it once per archive version, shared by every launch.
  const stat = fs.statSync(archive);
  const key = crypto.createHash('sha256').update(archive + ':' + stat.size + ':' + stat.mtimeMs).digest('hex').slice(0, 16);
  appDir = path.join(os.tmpdir(), 'electron-stand-in-app-' + key);
  if (!fs.existsSync(path.join(appDir, 'package.json'))) {
    const staging = appDir + '.' + process.pid + '.tmp';
    asar.extractAll(archive, staging);
    try {
      fs.renameSync(staging, appDir);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
} else if (fuse.onlyLoadAppFromAsar === '1') {
  process.stderr.write('Electron stand-in: no resources/app.asar, and the onlyLoadAppFromAsar fuse is on\n');
  process.exit(1);
} else {
  appDir = path.join(resourcesPath, 'app');
}

const pkg = JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8'));
process.argv = [executable, ...args];
process.execPath = executable;
Object.defineProperty(process.versions, 'electron', { value: VERSION, enumerable: true });
process.resourcesPath = resourcesPath;
process.type = 'browser';
import(pathToFileURL(path.join(appDir, pkg.main || 'index.js')).href).catch((error) => {
  process.stderr.write(String((error && error.stack) || error) + '\n');
  process.exit(1);
});
`;

/**
 * Writes the stand-in folder into `dir` (created if needed) and returns it.
 * @param {string} dir
 * @param {{ version: string }} options
 */
export function createStandInElectron(dir, { version }) {
  fs.mkdirSync(path.join(dir, 'resources'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'locales'), { recursive: true });
  // The wire: version 1, then how many fuses, then their states. Bytes 0x01 and 0x08 inside a
  // comment line are nothing to the shell.
  const wire = Buffer.concat([
    Buffer.from(`# fuse wire: ${FUSE_SENTINEL}`, 'latin1'),
    Buffer.from([1, FUSE_ORDER.length]),
    Buffer.from(ELECTRON_DEFAULT_FUSES, 'latin1'),
  ]);
  const script = Buffer.concat([
    Buffer.from('#!/bin/sh\n# Stand-in for Electron (scripts/pack/stand-in-electron.js).\n'),
    wire,
    Buffer.from(
      [
        '',
        'executable=$(readlink -f "$0")',
        `exec ${shellQuote(process.execPath)} "$(dirname "$executable")/stand-in-main.cjs" "$executable" "$@"`,
        '',
      ].join('\n'),
    ),
  ]);
  fs.writeFileSync(path.join(dir, 'electron'), script, { mode: 0o755 });
  const shim = SHIM.replace('ASAR_MODULE', JSON.stringify(require.resolve('@electron/asar'))).replace('VERSION', JSON.stringify(version));
  fs.writeFileSync(path.join(dir, 'stand-in-main.cjs'), shim);
  // What else electron-builder touches in a real dist: the license it keeps, the version file it
  // drops, the sandbox helper the .deb's postinst chmods, one locale.
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'Stand-in for the Electron license file.\n');
  fs.writeFileSync(path.join(dir, 'version'), `${version}\n`);
  fs.writeFileSync(path.join(dir, 'chrome-sandbox'), '', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'locales', 'en-US.pak'), '');
  return dir;
}

function shellQuote(value) {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
