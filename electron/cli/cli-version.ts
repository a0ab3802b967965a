// The version `mcp-roots --version` prints: this installation's package.json, found from this file
// upwards (it runs from source under tsx and from dist/ alike).
import fs from 'node:fs';
import path from 'node:path';

export function cliVersion(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
