// What of a server's own program must be visible (read-only) inside its sandbox: the command found
// on PATH, the interpreter a script names in its shebang, a script argument's package, and the
// node_modules folders Node resolves that package's dependencies from. Paths under the system
// runtime (/usr…) are there anyway; the plan drops them. The symlinks on the way to the command, its
// interpreters and its script are kept as they are (recreated inside, symlink-hops.ts): each then
// resolves inside as it does on the host, by the name it was given.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findOnPath } from './sandbox-probe.js';
import { isWithin, SandboxSetupError } from './sandbox-types.js';
import { shimNeeds, type ShimNeeds } from './version-manager-shims.js';
import { symlinkHops, type SymlinkHop } from './symlink-hops.js';

export interface ProgramInput {
  command: string;
  args: readonly string[];
  cwd?: string | undefined;
  /** The PATH the server is started with (its own env's, else the app's). */
  pathEnv: string | undefined;
  /**
   * Where the confined server can write (its read-write roots, its private HOME and TMPDIR). A file
   * there (a shebang, a node_modules link, a package.json) may name only what is visible inside
   * anyway: otherwise a server could plant `node_modules/x -> ~/other-project` and have it bound at
   * its next start. Default: nowhere (an unconfined program).
   */
  serverWritable?: ((p: string) => boolean) | undefined;
  /** Whether a path is inside one of the server's roots (visible to it whatever the program needs). */
  visibleInside?: ((p: string) => boolean) | undefined;
}

export interface ProgramLocation {
  /** The command as an absolute path (not resolved through symlinks: a venv's python must keep its name). */
  command: string;
  /** The arguments, with a script argument made absolute (the cwd may not be reachable inside). */
  args: string[];
  /** Files and folders to bind read-only; absolute, canonical, deduplicated. */
  paths: string[];
  /** Paths a server-writable file named that were NOT bound (they lie outside its roots). */
  refused: string[];
  /** The symlinks the command, its interpreters and its script are reached through, in the order met. */
  links: SymlinkHop[];
  /** Version managers whose shims it runs through (version-manager-shims.ts): their env and HOME files. */
  versionManagers: ShimNeeds[];
}

// Commands that run a script named by their first positional argument.
const INTERPRETER = /^(node|nodejs|bun|deno|tsx|python(\d+(\.\d+)?)?|pypy\d*|ruby|perl|php|bash|sh|zsh|dash)$/;
// Options after which there is no script (code on the command line, or a module by name).
const NO_SCRIPT_AFTER = new Set(['-e', '--eval', '-p', '--print', '-c', '-m']);
// Options that take the next argument as their value.
const TAKES_VALUE = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-W', '-X', '--conditions', '-C']);
const JS_INTERPRETER = /^(node|nodejs|bun|deno|tsx)$/;

/** A prefix folder (parent of `bin`) that holds one installation, not a user's catch-all. */
function isInstallPrefix(prefix: string): boolean {
  const home = os.homedir();
  if (prefix === home || prefix === path.join(home, '.local') || prefix === '/') return false;
  return fs.existsSync(path.join(prefix, 'lib')) || fs.existsSync(path.join(prefix, 'lib64'));
}

function realpathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function readShebang(file: string): string[] | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(256);
    const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, length).toString('utf8');
    if (!head.startsWith('#!')) return undefined;
    const line = head.slice(2).split('\n')[0]?.trim() ?? '';
    return line.split(/\s+/).filter(Boolean);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

class Collector {
  readonly paths = new Set<string>();
  readonly refused = new Set<string>();
  readonly links = new Map<string, SymlinkHop>();
  readonly versionManagers = new Map<string, ShimNeeds>();
  private readonly seenExecutables = new Set<string>();

  constructor(
    private readonly pathEnv: string | undefined,
    private readonly serverWritable: (p: string) => boolean = () => false,
    private readonly visibleInside: (p: string) => boolean = () => false,
  ) {}

  /** A source the server can write taints what it names (`tainted` passes that on). */
  taints(source: string, tainted: boolean): boolean {
    return tainted || this.serverWritable(source);
  }

  /**
   * A path as named: tainted as `taints` says, or when any symlink it resolves through lies where the
   * server can write (a link it could point elsewhere before its next start). Its links are kept.
   */
  named(file: string, tainted: boolean): boolean {
    const hops = symlinkHops(file);
    for (const hop of hops) if (!this.links.has(hop.path)) this.links.set(hop.path, hop);
    return this.taints(file, tainted) || hops.some((hop) => this.serverWritable(hop.path));
  }

  /**
   * Binds `p`, unless it is the user's HOME or above it (a script saved straight into HOME, a stray
   * ~/package.json): then only `file` itself, so a program never drags ~/.ssh in with it. A path
   * named by something the server can write is bound only if the server sees it anyway.
   */
  add(p: string, file: string | undefined, tainted: boolean): void {
    const real = realpathOr(p);
    if (tainted && !this.visibleInside(real)) {
      this.refused.add(real);
      return;
    }
    if (isWithin(os.homedir(), real) || real === '/') {
      if (file) this.paths.add(realpathOr(file));
      return;
    }
    this.paths.add(real);
  }

  /** An executable as named (P) and as it really is (R): what running it needs. */
  executable(named: string, depthLeft = 4, taintedBy = false): void {
    if (depthLeft === 0 || this.seenExecutables.has(named)) return;
    this.seenExecutables.add(named);
    const tainted = this.named(named, taintedBy);
    const real = realpathOr(named);
    if (tainted && !this.visibleInside(real)) {
      this.refused.add(real);
      return;
    }
    // Running it by the name it was given needs that name (a symlink in its folder) to exist.
    if (real !== named) this.add(path.dirname(named), named, tainted);
    for (const candidate of new Set([named, real])) this.installOf(candidate, tainted);
    // A version manager's shim execs what lies beside it (version-manager-shims.ts).
    for (const needs of [shimNeeds(named, this.pathEnv), shimNeeds(real, this.pathEnv)]) {
      if (!needs || this.versionManagers.has(`${needs.manager}:${needs.root}`)) continue;
      for (const target of needs.paths) this.add(target, undefined, tainted);
      for (const program of needs.programs) this.executable(program, depthLeft - 1, tainted);
      // A HOME file is linked from the private HOME only where it is bound (not refused).
      const homeFiles = needs.homeFiles.filter((file) => this.paths.has(realpathOr(file)));
      this.versionManagers.set(`${needs.manager}:${needs.root}`, { ...needs, homeFiles });
    }
    const shebang = readShebang(real);
    if (shebang) {
      this.scriptHome(real, shebang, tainted);
      const [interpreter, ...rest] = shebang;
      if (!interpreter) return;
      const fromShebang = this.taints(real, tainted);
      if (path.basename(interpreter) === 'env') {
        const name = rest.find((word) => !word.startsWith('-') && !word.includes('='));
        const found = name ? findOnPath(name, this.pathEnv) : undefined;
        if (found) this.executable(found, depthLeft - 1, tainted);
      } else if (path.isAbsolute(interpreter)) {
        this.executable(interpreter, depthLeft - 1, fromShebang);
      }
    }
  }

  /** The folder an executable belongs to: its venv, its install prefix, or just its own folder. */
  private installOf(file: string, tainted: boolean): void {
    const dir = path.dirname(file);
    if (path.basename(dir) === 'bin') {
      const prefix = path.dirname(dir);
      if (fs.existsSync(path.join(prefix, 'pyvenv.cfg'))) return this.add(prefix, undefined, tainted);
      if (isInstallPrefix(prefix)) return this.add(prefix, undefined, tainted);
    }
    this.add(dir, file, tainted);
  }

  /** A script's own code: its package (JS) or venv (Python), else its folder. */
  scriptHome(script: string, interpreterWords: readonly string[] = [], taintedBy = false): void {
    const tainted = this.taints(script, taintedBy);
    const named = interpreterWords.map((word) => path.basename(word));
    const isJs = /\.(c|m)?(j|t)sx?$/.test(script) || named.some((word) => JS_INTERPRETER.test(word));
    if (isJs) {
      // HOME and above are never a package root (a stray ~/package.json would bind all of HOME).
      const packageRoot = findUp(path.dirname(script), (dir) => !isWithin(os.homedir(), dir) && fs.existsSync(path.join(dir, 'package.json')));
      if (packageRoot) return this.jsPackage(packageRoot, 2, tainted);
    }
    const dir = path.dirname(script);
    if (path.basename(dir) === 'bin' && fs.existsSync(path.join(path.dirname(dir), 'pyvenv.cfg'))) return this.add(path.dirname(dir), undefined, tainted);
    this.add(dir, script, tainted);
  }

  /**
   * A package and every node_modules folder Node searches from it (each ancestor's), plus the
   * targets of symlinked packages there (npm link, workspaces, pnpm) that lie outside them.
   */
  private jsPackage(packageRoot: string, linkDepth: number, taintedBy: boolean): void {
    const tainted = this.taints(packageRoot, taintedBy);
    const real = realpathOr(packageRoot);
    this.add(real, undefined, tainted);
    const searched = new Set<string>();
    for (let dir = real; ; dir = path.dirname(dir)) {
      const modules = path.basename(dir) === 'node_modules' ? dir : path.join(dir, 'node_modules');
      if (!searched.has(modules) && fs.existsSync(modules)) {
        searched.add(modules);
        this.add(modules, undefined, tainted);
        if (linkDepth > 0) this.linkedPackages(modules, linkDepth, this.taints(modules, tainted));
      }
      if (path.dirname(dir) === dir) break;
    }
  }

  private linkedPackages(modules: string, linkDepth: number, tainted: boolean): void {
    const entries = (dir: string) => {
      try {
        return fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return [];
      }
    };
    for (const entry of entries(modules)) {
      const full = path.join(modules, entry.name);
      const children = entry.name.startsWith('@') && entry.isDirectory() ? entries(full).map((child) => ({ child, full: path.join(full, child.name) })) : [{ child: entry, full }];
      for (const { child, full: packagePath } of children) {
        if (!child.isSymbolicLink()) continue;
        const target = realpathOr(packagePath);
        if ([...this.paths].some((bound) => isWithin(target, bound))) continue;
        if (tainted && !this.visibleInside(target)) {
          this.refused.add(target);
          continue;
        }
        if (fs.existsSync(path.join(target, 'package.json'))) this.jsPackage(target, linkDepth - 1, tainted);
      }
    }
  }
}

function findUp(start: string, test: (dir: string) => boolean): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (test(dir)) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The command as an absolute path: relative to cwd when it names a path, else found on PATH. */
export function resolveCommand(command: string, cwd: string | undefined, pathEnv: string | undefined): string {
  if (command.includes('/')) {
    const absolute = path.resolve(cwd ?? process.cwd(), command);
    try {
      fs.accessSync(absolute, fs.constants.X_OK);
      return absolute;
    } catch {
      throw new SandboxSetupError('command-not-found', `"${command}" is not an executable file.`);
    }
  }
  const found = findOnPath(command, pathEnv);
  if (!found) throw new SandboxSetupError('command-not-found', `"${command}" is not on PATH, so it cannot be located for its sandbox.`);
  return found;
}

/** Index of the script argument of an interpreter command, if it has one. */
export function scriptArgumentIndex(commandName: string, args: readonly string[]): number | undefined {
  if (!INTERPRETER.test(commandName)) return undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (NO_SCRIPT_AFTER.has(arg)) return undefined;
    if (TAKES_VALUE.has(arg)) {
      i++;
      continue;
    }
    if (arg === '--') return i + 1 < args.length ? i + 1 : undefined;
    if (arg.startsWith('-')) continue;
    // deno run / bun run SCRIPT
    if ((commandName === 'deno' || commandName === 'bun') && arg === 'run') continue;
    return i;
  }
  return undefined;
}

export function locateProgram(input: ProgramInput): ProgramLocation {
  const command = resolveCommand(input.command, input.cwd, input.pathEnv);
  const collector = new Collector(input.pathEnv, input.serverWritable, input.visibleInside);
  collector.executable(command);
  const args = [...input.args];
  const names = [path.basename(command), path.basename(realpathOr(command))];
  const scriptIndex = names.map((name) => scriptArgumentIndex(name, args)).find((index) => index !== undefined);
  if (scriptIndex !== undefined) {
    const script = path.resolve(input.cwd ?? process.cwd(), args[scriptIndex] as string);
    if (fs.existsSync(script) && fs.statSync(script).isFile()) {
      args[scriptIndex] = script;
      const real = realpathOr(script);
      // A script link the server can write may point only where the server sees anyway.
      const tainted = collector.named(script, false);
      if (tainted && !input.visibleInside?.(real)) collector.refused.add(real);
      else collector.scriptHome(real, names, tainted);
    }
  }
  return {
    command,
    args,
    paths: [...collector.paths].sort(),
    refused: [...collector.refused].sort(),
    links: [...collector.links.values()],
    versionManagers: [...collector.versionManagers.values()],
  };
}
