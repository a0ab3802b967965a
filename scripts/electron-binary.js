// Where Electron's binary is, or why it is not there. The `electron` npm package downloads the
// binary in its postinstall step; when that was skipped (ELECTRON_SKIP_BINARY_DOWNLOAD) or failed,
// `require('electron')` throws "Electron failed to install correctly…" (no path.txt), or names a
// file that does not exist.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** @returns {{ found: true, path: string } | { found: false, reason: string }} */
export function findElectronBinary() {
  let binary;
  try {
    binary = require('electron');
  } catch (error) {
    const skipped = process.env.ELECTRON_SKIP_BINARY_DOWNLOAD
      ? 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so npm install did not download it'
      : 'its download during npm install was skipped or failed';
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { found: false, reason: `${skipped}; the electron package says: "${detail}"` };
  }
  if (typeof binary !== 'string' || !fs.existsSync(binary)) {
    return { found: false, reason: `the electron package points at ${String(binary)}, which does not exist` };
  }
  return { found: true, path: binary };
}

export const FETCH_HINT = 'To fetch it: unset ELECTRON_SKIP_BINARY_DOWNLOAD and run `node node_modules/electron/install.js`.';
