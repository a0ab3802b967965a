// Which registry the app edits: `--config-dir` or MCP_ROOTS_CONFIG_DIR when given, otherwise
// Electron's userData folder (the same folder the CLI and `mcp-roots serve` default to).
import { CONFIG_DIR_ENV, resolveConfigDir } from '../host/registry/config-dir.js';

export interface ConfigLocation {
  dir: string;
  /** True when chosen by flag or environment (tests, portable setups), not by the platform default. */
  explicit: boolean;
}

/** Reads `--config-dir <dir>` or `--config-dir=<dir>`; the last one wins, like most CLIs. */
export function configDirFlag(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--config-dir') {
      const next = argv[index + 1];
      if (next !== undefined && !next.startsWith('--')) found = next;
      index++;
    } else if (arg?.startsWith('--config-dir=')) {
      found = arg.slice('--config-dir='.length) || found;
    }
  }
  return found;
}

export function chooseConfigDir(argv: readonly string[], env: NodeJS.ProcessEnv, userDataDir: string): ConfigLocation {
  const flag = configDirFlag(argv);
  if (flag === undefined && !env[CONFIG_DIR_ENV]) return { dir: userDataDir, explicit: false };
  return { dir: resolveConfigDir(flag, env), explicit: true };
}
