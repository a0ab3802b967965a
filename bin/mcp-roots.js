#!/usr/bin/env node
// The installed command. It runs the compiled CLI (`npm run build:node`, done by `npm install`'s prepare).
import fs from 'node:fs';

const entry = new URL('../dist/electron/cli/main.js', import.meta.url);
if (!fs.existsSync(entry)) {
  // An install with --ignore-scripts skips prepare.
  process.stderr.write('mcp-roots is not built yet: run `npm run build:node` in its folder.\n');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
