// Where each host keeps its MCP config, per platform. Pure over (platform, env, home, a directory
// lister) so every platform's answer is testable on any machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostKind } from './host-kind.js';

export interface ConfigSource {
  host: HostKind;
  path: string;
  scope: 'user' | 'workspace';
}

export interface LocationContext {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** Project folders whose workspace configs (.vscode/mcp.json, .cursor/mcp.json, .mcp.json) count. */
  workspaces?: readonly string[];
  /** Lists a directory's entries; [] when it does not exist. */
  listDir?: (dir: string) => string[];
}

function defaultListDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** Every place a config may be, whether or not a file is there. */
export function configLocations(context: LocationContext = {}): ConfigSource[] {
  const platform = context.platform ?? process.platform;
  const env = context.env ?? process.env;
  const home = context.home ?? os.homedir();
  const listDir = context.listDir ?? defaultListDir;
  // Windows paths are built with win32 rules even when a test runs elsewhere.
  const p = platform === 'win32' ? path.win32 : path.posix;
  const user = (host: HostKind, file: string): ConfigSource => ({ host, path: file, scope: 'user' });
  const sources: ConfigSource[] = [];

  if (platform === 'win32') {
    const appData = env.APPDATA ?? p.join(home, 'AppData', 'Roaming');
    const localAppData = env.LOCALAPPDATA ?? p.join(home, 'AppData', 'Local');
    sources.push(user('claude-desktop', p.join(appData, 'Claude', 'claude_desktop_config.json')));
    // The Microsoft Store (MSIX) build keeps its roaming data in a virtualized package folder.
    const packages = p.join(localAppData, 'Packages');
    for (const entry of listDir(packages).filter((name) => name.startsWith('Claude_')).sort()) {
      sources.push(user('claude-desktop', p.join(packages, entry, 'LocalCache', 'Roaming', 'Claude', 'claude_desktop_config.json')));
    }
    for (const product of ['Code', 'Code - Insiders']) sources.push(user('vscode', p.join(appData, product, 'User', 'mcp.json')));
  } else if (platform === 'darwin') {
    const support = p.join(home, 'Library', 'Application Support');
    sources.push(user('claude-desktop', p.join(support, 'Claude', 'claude_desktop_config.json')));
    for (const product of ['Code', 'Code - Insiders']) sources.push(user('vscode', p.join(support, product, 'User', 'mcp.json')));
  } else {
    const config = env.XDG_CONFIG_HOME ?? p.join(home, '.config');
    sources.push(user('claude-desktop', p.join(config, 'Claude', 'claude_desktop_config.json')));
    for (const product of ['Code', 'Code - Insiders']) sources.push(user('vscode', p.join(config, product, 'User', 'mcp.json')));
  }
  sources.push(user('cursor', p.join(home, '.cursor', 'mcp.json')));
  sources.push(user('claude-code', p.join(home, '.claude.json')));

  for (const workspace of context.workspaces ?? []) {
    const at = (host: HostKind, ...parts: string[]): ConfigSource => ({ host, path: p.join(workspace, ...parts), scope: 'workspace' });
    sources.push(at('vscode', '.vscode', 'mcp.json'), at('cursor', '.cursor', 'mcp.json'), at('claude-code', '.mcp.json'));
  }
  return sources;
}

/** The locations that hold a file right now. */
export function existingConfigSources(context: LocationContext = {}, exists: (file: string) => boolean = fs.existsSync): ConfigSource[] {
  return configLocations(context).filter((source) => exists(source.path));
}
