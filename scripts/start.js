#!/usr/bin/env node
// `npm start`: the desktop app when Electron's binary is installed. `npm install` leaves it out (so
// that installing works offline and behind firewalls); the first start fetches it, with progress.
// Where that fails, or ELECTRON_SKIP_BINARY_DOWNLOAD says not to try, the same UI is served headless
// in the browser (`mcp-roots serve`). Extra arguments are passed through to either.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FETCH_HINT, findElectronBinary } from './electron-binary.js';
import { fetchElectronBinary } from './electron-fetch.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

let electron = findElectronBinary();
if (!electron.found && !process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log(`Electron's binary is not here (${electron.reason}); fetching it once.`);
  try {
    await fetchElectronBinary({ progress: showProgress });
    electron = findElectronBinary();
  } catch (error) {
    if (process.stdout.isTTY) process.stdout.write('\n');
    electron = { found: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

if (electron.found) {
  const env = { ...process.env };
  // Set, it would make the Electron binary behave as plain Node and ignore the app.
  delete env.ELECTRON_RUN_AS_NODE;
  run(electron.path, ['.', ...args], env);
} else {
  console.log(`No desktop app: ${electron.reason}.`);
  console.log('Starting the same UI headless instead: open the URL below in a browser.');
  console.log(FETCH_HINT);
  run(process.execPath, [path.join(root, 'bin', 'mcp-roots.js'), 'serve', ...args], process.env);
}

/** On a terminal one line that counts up; in a log a line per tenth. */
let shownTenth = -1;
function showProgress({ line, percent, final }) {
  if (process.stdout.isTTY) {
    process.stdout.write(`\r${line}${final ? '\n' : ''}`);
    return;
  }
  const tenth = Math.floor(percent / 10);
  if (!final && tenth === shownTenth) return;
  shownTenth = tenth;
  console.log(line);
}

function run(command, commandArgs, env) {
  const child = spawn(command, commandArgs, { cwd: root, env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`Could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  // Exit with the child: a failed download's leftover timers must not hold this launcher open.
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
