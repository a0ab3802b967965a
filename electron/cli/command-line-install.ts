// "Install command line tool" (as GitHub Desktop and VS Code offer): puts a small `mcp-roots`
// script in a bin folder on the user's PATH that runs this installation's command line: the
// installed app's executable (it runs the command line itself, launch-mode.ts), or node with
// bin/mcp-roots.js. A script, not a symlink: the app's executable opens a window when given no
// arguments, while `mcp-roots` alone should print its help. Electron-free: the menu item in
// electron/main/command-line-tool.ts only calls this and shows the outcome.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { installationLauncher, type ProxyLauncher } from '../import/proxy-launcher.js';

/** The first line after the shebang: how a later install knows the script is its own to replace. */
export const SHIM_MARKER = '# mcp-roots: installed by MCP Roots Manager ("Install command line tool").';

export type InstallOutcome =
  | { ok: true; path: string; replaced: boolean; onPath: boolean }
  | { ok: false; reason: 'unsupported' | 'not-ours' | 'no-permission'; path?: string; detail: string };

export interface InstallOptions {
  launcher?: ProxyLauncher;
  platform?: NodeJS.Platform;
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Where to try, in order; the default per platform (commandLineBinDirs). */
  binDirs?: readonly string[];
}

/**
 * Linux: ~/.local/bin (the XDG place, on PATH where it exists in Debian, Ubuntu and Fedora).
 * macOS: /usr/local/bin as those apps use, else ~/.local/bin where that needs an administrator.
 */
export function commandLineBinDirs(platform: NodeJS.Platform, home: string): string[] {
  if (platform === 'darwin') return ['/usr/local/bin', path.join(home, '.local', 'bin')];
  if (platform === 'win32') return [];
  return [path.join(home, '.local', 'bin')];
}

/** The script's text: runs the launcher with the arguments given, and with none, `--help`. */
export function commandLineShim(launcher: ProxyLauncher): string {
  const q = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const env = Object.entries(launcher.env ?? {}).map(([key, value]) => `${key}=${q(value)} `).join('');
  const program = launcher.kind === 'node' ? [launcher.node, ...(launcher.nodeArgs ?? []), launcher.script] : [launcher.kind === 'app' ? launcher.executable : launcher.command];
  return `#!/bin/sh\n${SHIM_MARKER}\n[ $# -eq 0 ] && set -- --help\n${env ? `export ${env.trim()}\n` : ''}exec ${program.map(q).join(' ')} "$@"\n`;
}

export async function installCommandLine(options: InstallOptions = {}): Promise<InstallOutcome> {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const dirs = options.binDirs ?? commandLineBinDirs(platform, options.home ?? os.homedir());
  if (platform === 'win32' || dirs.length === 0) {
    return { ok: false, reason: 'unsupported', detail: 'Windows: run the installed app\'s executable, or add its folder to PATH.' };
  }
  const script = commandLineShim(options.launcher ?? installationLauncher());
  let refused: InstallOutcome | undefined;
  for (const dir of dirs) {
    const target = path.join(dir, 'mcp-roots');
    const existing = await readIfThere(target);
    // Someone else's mcp-roots (an `npm link`, another copy): never overwritten.
    if (existing !== undefined && !existing.includes(SHIM_MARKER)) {
      return { ok: false, reason: 'not-ours', path: target, detail: `${target} exists and was not installed by MCP Roots Manager; remove it first to install this one.` };
    }
    try {
      await fs.mkdir(dir, { recursive: true });
      const temp = `${target}.${process.pid}.tmp`;
      await fs.writeFile(temp, script, { mode: 0o755 });
      await fs.rename(temp, target);
      return { ok: true, path: target, replaced: existing !== undefined, onPath: onPath(dir, env) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw error;
      refused ??= { ok: false, reason: 'no-permission', path: target, detail: `No permission to write ${target}.` };
    }
  }
  return refused as InstallOutcome;
}

function onPath(dir: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(path.delimiter).some((entry) => entry !== '' && path.resolve(entry) === path.resolve(dir));
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.lstat(file);
    // A symlink is not ours whatever it points at (npm link makes one).
    if (!stat.isFile()) return '';
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
