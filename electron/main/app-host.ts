// The desktop app's RootsHost on the registry in the app's userData folder (config.json, the
// file the CLI and `mcp-roots serve` edit too).
import { RootsHost } from '../host/roots-host.js';

export function createAppHost(configDir: string): RootsHost {
  return new RootsHost({ configDir });
}
