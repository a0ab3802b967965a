#!/usr/bin/env node
// The installed command. It runs the compiled CLI (`npm run build`, done by `npm install`'s prepare).
import { main } from '../dist/electron/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
