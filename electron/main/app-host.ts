// The desktop app's RootsHost on the registry in the app's userData folder (config.json, the
// file the CLI and `mcp-roots serve` edit too). Secrets in it are sealed with safeStorage, so this
// is created once the app is ready.
import type { SecretCodec } from '../host/secret-codec.js';
import { RootsHost } from '../host/roots-host.js';
import { createSafeStorageCodec } from './safe-storage-codec.js';

export function createAppHost(configDir: string, secrets: SecretCodec = createSafeStorageCodec()): RootsHost {
  return new RootsHost({ configDir, secrets });
}
