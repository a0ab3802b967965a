// Where Electron's binary is, or why it is not there. Read from the electron package's path.txt
// and dist/, never through `require('electron')`: since Electron 45 that starts a download, with
// no time limit, when the binary is missing. `npm start` fetches it instead (electron-fetch.js).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * @param {string} [electronDir] the electron package's folder; default the one this project resolves
 * @returns {{ found: true, path: string } | { found: false, reason: string }}
 */
export function findElectronBinary(electronDir = path.dirname(require.resolve('electron/package.json'))) {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD && !installed(electronDir)) {
    return { found: false, reason: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is never fetched' };
  }
  const pathFile = path.join(electronDir, 'path.txt');
  if (!fs.existsSync(pathFile)) return { found: false, reason: 'it has not been fetched yet' };
  const binary = binaryPath(electronDir, fs.readFileSync(pathFile, 'utf8').trim());
  if (!fs.existsSync(binary)) return { found: false, reason: `path.txt names ${binary}, which does not exist` };
  return { found: true, path: binary };
}

/** Where the electron package's own index.js would look. */
function binaryPath(electronDir, executable) {
  return path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(electronDir, 'dist'), executable);
}

function installed(electronDir) {
  const pathFile = path.join(electronDir, 'path.txt');
  return fs.existsSync(pathFile) && fs.existsSync(binaryPath(electronDir, fs.readFileSync(pathFile, 'utf8').trim()));
}

export const FETCH_HINT =
  "The desktop app needs Electron's binary: `npm start` fetches it whenever its download host is reachable " +
  '(ELECTRON_MIRROR names a mirror; ELECTRON_SKIP_BINARY_DOWNLOAD=1 stops the attempt).';
