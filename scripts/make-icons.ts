// Regenerates build/icons from the shapes in electron/main/app-icon.ts:
//   npx tsx scripts/make-icons.ts
// icon.svg is the editable source; 512x512.png is what electron-builder turns into .icns/.ico and
// the Linux icon set.
import fs from 'node:fs';
import path from 'node:path';
import { iconPng, iconSvg } from '../electron/main/app-icon.js';

const dir = path.join(import.meta.dirname, '..', 'build', 'icons');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'icon.svg'), iconSvg());
fs.writeFileSync(path.join(dir, '512x512.png'), iconPng(512));
console.log(`Wrote ${path.relative(process.cwd(), dir)}/icon.svg and 512x512.png`);
