// The desktop app's RootsHost on the registry in the app's userData folder (config.json, the
// file the CLI and `mcp-roots serve` edit too). Secrets in it are sealed with the keychain key the
// CLI, serve and proxy use too (keyring-codec.ts) where this process reaches it, else with
// safeStorage; values sealed either way are read. Created once the app is ready (safeStorage needs it).
import type { HostEnvironment } from '../../shared/domain.js';
import { openRegistryCodec } from '../host/registry/keyring-codec.js';
import { combineCodecs, type SecretCodec } from '../host/registry/secret-codec.js';
import { RootsHost } from '../host/roots-host.js';
import { findOnPath } from '../import/proxy-launcher.js';
import type { ShellPath } from './login-shell-path.js';
import { createSafeStorageCodec } from './safe-storage-codec.js';

export interface AppHostOptions {
  secrets?: SecretCodec;
  /** The PATH servers are started with (already in process.env); shown in the UI with its npx. */
  shellPath?: ShellPath;
}

export async function createAppHost(configDir: string, options: AppHostOptions = {}): Promise<RootsHost> {
  const secrets = options.secrets ?? combineCodecs([await openRegistryCodec(configDir), createSafeStorageCodec()]);
  const environment = options.shellPath ? hostEnvironment(options.shellPath) : undefined;
  return new RootsHost({ configDir, secrets, ...(environment ? { environment } : {}) });
}

export function hostEnvironment(shellPath: ShellPath, platform: NodeJS.Platform = process.platform): HostEnvironment {
  return {
    pathSource: shellPath.source,
    ...(shellPath.shell ? { shell: shellPath.shell } : {}),
    npx: findOnPath('npx', { ...process.env, PATH: shellPath.path }, platform) ?? null,
  };
}
