#!/usr/bin/env node
// `npm start`: the desktop app when Electron's binary is installed, otherwise the same UI served
// headless in the browser (`mcp-roots serve`). Extra arguments are passed through to either.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FETCH_HINT, findElectronBinary } from './electron-binary.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const electron = findElectronBinary();

if (electron.found) {
  const env = { ...process.env };
  // Set, it would make the Electron binary behave as plain Node and ignore the app.
  delete env.ELECTRON_RUN_AS_NODE;
  run(electron.path, ['.', ...args], env);
} else {
  console.log(`Electron's binary is not installed here (${electron.reason}); starting the headless UI instead.`);
  console.log(FETCH_HINT);
  run(process.execPath, [path.join(root, 'bin', 'mcp-roots.js'), 'serve', ...args], process.env);
}

function run(command, commandArgs, env) {
  const child = spawn(command, commandArgs, { cwd: root, env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`Could not start ${command}: ${error.message}`);
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
