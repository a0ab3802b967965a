// Where the built renderer lives. Found from this file's own location (not the working
// directory), so `mcp-roots serve` works from any folder and from source (tsx) or from dist/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function defaultRendererDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'dist', 'renderer');
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('dist', 'renderer');
    dir = parent;
  }
}
