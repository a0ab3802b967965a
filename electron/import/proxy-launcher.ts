// How a host's config starts `mcp-roots proxy`. Two explicit choices:
//  - full paths, the default, because hosts launched from the Dock or Start menu (Claude Desktop)
//    do not see the shell's PATH: in the installed app, its own executable ('app': it runs the
//    command line itself, see electron/main/launch-mode.ts); elsewhere the absolute path of node
//    and of bin/mcp-roots.js ('node').
//  - 'path': plain `mcp-roots`, resolved by the host at launch; shorter, survives moving node,
//    but only works when the host's own PATH has it (check with findOnPath).
import fs from 'node:fs';
import path from 'node:path';
import { PRODUCT_NAME } from '../host/registry/config-dir.js';

export type ProxyLauncher =
  | { kind: 'node'; node: string; script: string; nodeArgs?: string[]; env?: Record<string, string> }
  | { kind: 'app'; executable: string; env?: Record<string, string> }
  | { kind: 'path'; command: string; env?: Record<string, string> };

/** The installed app's executable on Linux (electron-builder.yml: linux.executableName). */
export const LINUX_EXECUTABLE_NAME = 'mcp-roots-manager';

export interface ProxyCommand {
  command: string;
  args: string[];
  env?: Record<string, string> | undefined;
}

/** This installation's bin/mcp-roots.js, found from this file upwards (source and dist alike). */
export function installedScript(from: string = import.meta.dirname): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'bin', 'mcp-roots.js');
    if (fs.existsSync(candidate) && fs.existsSync(path.join(dir, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export function nodeLauncher(script = installedScript(), node = process.execPath): ProxyLauncher {
  if (!script) throw new Error('bin/mcp-roots.js was not found next to this installation; use the "path" launcher.');
  return { kind: 'node', node, script };
}

export function pathLauncher(command = 'mcp-roots'): ProxyLauncher {
  return { kind: 'path', command };
}

type ProcessFacts = Pick<NodeJS.Process, 'versions' | 'execPath' | 'env'> & { defaultApp?: boolean };

/**
 * The full-paths launcher of this installation. The packaged app (Electron, not `electron .`) has
 * no Node to lend (its runAsNode fuse is off): it names itself, or the AppImage file it was
 * started from, since an AppImage runs from a new mount point each time. `electron .` in a
 * checkout still has runAsNode, so there Electron runs bin/mcp-roots.js as Node.
 */
export function installationLauncher(facts: ProcessFacts = process): ProxyLauncher {
  if (facts.versions.electron && !facts.defaultApp) return { kind: 'app', executable: facts.env.APPIMAGE || facts.execPath };
  const launcher = nodeLauncher(undefined, facts.execPath);
  return facts.versions.electron ? { ...launcher, env: { ...launcher.env, ELECTRON_RUN_AS_NODE: '1' } } : launcher;
}

/** The command line that runs `mcp-roots [--config-dir DIR] proxy SERVER` for a host. */
export function proxyCommand(launcher: ProxyLauncher, server: string, configDir?: string): ProxyCommand {
  const tail = ['proxy', ...(configDir ? ['--config-dir', configDir] : []), server];
  if (launcher.kind === 'node') return { command: launcher.node, args: [...(launcher.nodeArgs ?? []), launcher.script, ...tail], env: launcher.env };
  return { command: launcher.kind === 'app' ? launcher.executable : launcher.command, args: tail, env: launcher.env };
}

// bin/mcp-roots.js (or an npm shim), the proxy's own entry, or the installed app's executable.
const OUR_PROGRAM = new RegExp(
  `(^|[\\\\/])(mcp-roots(\\.js|\\.cmd|\\.exe)?|proxy-main\\.[jt]s|${LINUX_EXECUTABLE_NAME}|${PRODUCT_NAME}(\\.exe)?)$`,
  'i',
);

/** The server a host entry proxies, if the entry is one of ours; import must not take it as a server. */
export function proxiedServerOf(command: string, args: readonly string[]): string | undefined {
  const parts = [command, ...args];
  const ours = parts.findIndex((part) => OUR_PROGRAM.test(part));
  if (ours === -1) return undefined;
  const rest = parts.slice(ours + 1);
  const at = rest.indexOf('proxy');
  if (at === -1) return undefined;
  let server: string | undefined;
  for (let i = at + 1; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--config-dir' || arg === '--roots-policy') i++;
    else if (!arg.startsWith('--')) server = arg;
  }
  return server;
}

/** Where `name` resolves on a PATH, or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const delimiter = platform === 'win32' ? ';' : ':';
  const extensions = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').concat('') : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = path.join(dir, name + extension.toLowerCase());
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return candidate;
      } catch {
        // Not here; keep looking.
      }
    }
  }
  return undefined;
}
