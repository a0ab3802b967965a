// Where Electron's binary is, or why it is not there. `npm install` does not download it (package.json
// denies the electron package its install script); `npm start` fetches it the first time
// (electron-fetch.js). Until then `require('electron')` throws "Electron failed to install
// correctly…" (no path.txt), or names a file that does not exist.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * @param {string} [electronDir] the electron package's folder; default the one this project resolves
 * @returns {{ found: true, path: string } | { found: false, reason: string }}
 */
export function findElectronBinary(electronDir) {
  let binary;
  try {
    binary = electronDir ? createRequire(path.join(electronDir, 'package.json'))('./index.js') : require('electron');
  } catch (error) {
    if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return { found: false, reason: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is never fetched' };
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    // Without path.txt the package says "failed to install correctly": here that only means not fetched yet.
    const notFetched = /failed to install correctly/.test(detail);
    return { found: false, reason: notFetched ? 'it has not been fetched yet' : `the electron package says: "${detail}"` };
  }
  if (typeof binary !== 'string' || !fs.existsSync(binary)) {
    return { found: false, reason: `the electron package points at ${String(binary)}, which does not exist` };
  }
  return { found: true, path: binary };
}

export const FETCH_HINT =
  "The desktop app needs Electron's binary: `npm start` fetches it whenever its download host is reachable " +
  '(ELECTRON_MIRROR names a mirror; ELECTRON_SKIP_BINARY_DOWNLOAD=1 stops the attempt).';
