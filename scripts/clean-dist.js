#!/usr/bin/env node
// Empties dist/ before a packaging build: tsc never deletes the output of a source file that was
// removed or renamed, and whatever is in dist/ goes into app.asar.
import fs from 'node:fs';
import path from 'node:path';

const dist = path.resolve(import.meta.dirname, '..', 'dist');
fs.rmSync(dist, { recursive: true, force: true });
console.log(`Removed ${path.relative(process.cwd(), dist) || dist}`);
