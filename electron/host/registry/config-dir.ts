// Where the registry lives. The default is the directory Electron uses as `userData` for this
// app, so the desktop app, `mcp-roots serve` and the CLI all edit the same file.
import os from 'node:os';
import path from 'node:path';

export const PRODUCT_NAME = 'MCP Roots Manager';
export const CONFIG_DIR_ENV = 'MCP_ROOTS_CONFIG_DIR';

/** Mirrors Electron's `app.getPath('appData')` per platform. */
function appDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'win32') return env.APPDATA ?? path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME ?? path.join(home, '.config');
}

export function defaultConfigDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  return path.join(appDataDir(platform, env, home), PRODUCT_NAME);
}

/** `--config-dir` wins over `MCP_ROOTS_CONFIG_DIR`, which wins over the app's default. */
export function resolveConfigDir(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env[CONFIG_DIR_ENV];
  return chosen ? path.resolve(chosen) : defaultConfigDir();
}
