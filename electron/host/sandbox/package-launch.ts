// `npx PKG` and `uvx PKG` servers fetch their program when they start. Inside a sandbox they would
// need the user's package caches, and a writable ~/.npm is a way out: code planted there by a
// confined server would later run unconfined. So the package is found or installed OUTSIDE the
// sandbox first, by the app, and the server then runs it directly; the plan binds it read-only.
//
// Nothing of the package runs outside: npm installs with its scripts off, and uv builds nothing
// (wheels only), each with the app's own folder as cwd and no project config (a uv.toml or .npmrc a
// server wrote in its cwd is never read). A package that has a build step (install scripts, a
// native addon, a source distribution) gets it afterwards in a sandbox of its own (`build`, made by
// confine-stdio.ts): its staging folder is the only thing writable, the network is on, no grant is
// visible. Everything npm and uv print goes to a log file under the data folder, kept for the person.
//
// npx: the local project's node_modules (searched up from the server's cwd, as npx does) when it
// holds the package at the asked version, else an app-managed folder
// `<dataDir>/sandbox/packages/<spec>`, installed once with the user's own npm (its cache stays
// outside the sandbox and is written only by npm). A bare name is pinned to the version installed
// first; delete that folder to take a newer one.
// uvx: `uv tool install` into `<dataDir>/sandbox/uv-tools/<spec>`, one folder per package so that a
// build step writes only its own. Without uv on PATH the server is not started: a SandboxSetupError
// 'uv-missing' says so (never a crash, never an unconfined start).
// NOT RUN HERE: this machine has no uv, so uv is a stand-in in the tests.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { findOnPath } from './sandbox-probe.js';
import { SandboxSetupError } from './sandbox-types.js';

export interface PackageLaunchInput {
  command: string;
  args: readonly string[];
  cwd?: string | undefined;
  /** The environment npm/uv run with (outside the sandbox): the app's, with the server's PATH. */
  env: Readonly<Record<string, string | undefined>>;
  dataDir: string;
  /**
   * Runs a package's build step in a sandbox of its own: `dir` the only folder writable, the network
   * on, nothing granted. Without it a package's build step does not run at all.
   */
  build?: ConfinedBuild | undefined;
}

/** A build step to run confined, and the log its output goes to. */
export interface BuildStep {
  command: string;
  args: string[];
  /** Its working folder, and the only one it may write. */
  dir: string;
  env: Record<string, string>;
  log: string;
}

/** Runs a build step confined; rejects with a SandboxSetupError('package-install-failed') when it fails. */
export type ConfinedBuild = (step: BuildStep) => Promise<void>;

export interface PackageLaunch {
  command: string;
  args: string[];
  /** Where the package came from: 'local' (the project's node_modules) or 'installed' (the app's folder). */
  source: 'local' | 'installed';
  packageDir: string;
  /** Set by the start that installed it: the packages whose build step ran, confined. */
  built?: string[] | undefined;
  /** The install's full output, when this start installed it. */
  log?: string | undefined;
}

export interface NpxLine {
  /** What to install: a registry name with an optional version, a tarball, a folder, a git URL. */
  spec: string;
  /** The bin to run, when `-p PKG CMD` names it. */
  binName?: string | undefined;
  rest: string[];
  /** `--registry` and other npm options passed on to the install. */
  npmOptions: string[];
}

const NPX_FLAGS = new Set(['-y', '--yes', '-q', '--quiet', '--silent', '--prefer-offline', '--prefer-online', '--offline', '--no-audit', '--no-fund']);
const NPX_FLAGS_FOR_NPM = new Set(['--prefer-offline', '--prefer-online', '--offline']);

/** Reads an npx command line; forms the app cannot prepare outside the sandbox are refused by name. */
export function parseNpx(args: readonly string[]): NpxLine {
  const packages: string[] = [];
  const npmOptions: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-p' || arg === '--package') {
      packages.push(args[++i] ?? '');
      continue;
    }
    if (arg.startsWith('--package=')) {
      packages.push(arg.slice('--package='.length));
      continue;
    }
    if (arg === '--registry' || arg.startsWith('--registry=')) {
      npmOptions.push(arg.includes('=') ? arg : `--registry=${args[++i] ?? ''}`);
      continue;
    }
    if (NPX_FLAGS.has(arg)) {
      if (NPX_FLAGS_FOR_NPM.has(arg)) npmOptions.push(arg);
      continue;
    }
    if (arg === '--') continue;
    if (arg.startsWith('-')) {
      throw new SandboxSetupError('npx-unsupported', `npx option "${arg}" cannot be prepared outside the sandbox; run this server without the sandbox, or start the package with node.`);
    }
    if (packages.length > 1) throw new SandboxSetupError('npx-unsupported', 'npx with several --package options cannot be prepared outside the sandbox.');
    const rest = args.slice(i + 1);
    return packages.length === 1
      ? { spec: packages[0] as string, binName: arg, rest, npmOptions }
      : { spec: arg, rest, npmOptions };
  }
  throw new SandboxSetupError('npx-unsupported', 'npx without a package to run.');
}

/** A registry spec's name and version (`@scope/name@1.2.3` → ['@scope/name', '1.2.3']); undefined for paths and URLs. */
export function registryName(spec: string): { name: string; version?: string } | undefined {
  const match = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@(.+))?$/i.exec(spec);
  if (!match || spec.startsWith('.') || spec.includes(':')) return undefined;
  return match[2] ? { name: match[1] as string, version: match[2] } : { name: match[1] as string };
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The project's own copy, found the way npx finds it: node_modules/<name> up from the cwd. */
function localPackage(name: string, version: string | undefined, cwd: string): string | undefined {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    const manifest = readJson(path.join(candidate, 'package.json'));
    // A range or tag cannot be checked without npm's resolver: it goes to the app's folder.
    if (manifest && (version === undefined || manifest.version === version)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Where an install's whole output is kept (the error shows its last lines and names the file). */
function installLog(dataDir: string, folder: string): string {
  const dir = path.join(dataDir, 'sandbox', 'logs');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return path.join(dir, `install-${folder}.log`);
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' ').slice(0, 500);
}

/** Runs npm or uv outside the sandbox (nothing of the package runs: see the top), its output appended to `log`. */
function run(command: string, args: string[], options: { cwd: string; env: Readonly<Record<string, string | undefined>>; log: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        fs.appendFileSync(options.log, `$ ${path.basename(command)} ${args.join(' ')}\n${stdout}${stderr}${error ? `(${error.message.split('\n')[0]})\n` : ''}`, { mode: 0o600 });
      } catch {
        // The data folder went while it ran (the app's data removed, a test's folder cleaned up): the
        // install's own outcome still stands, and a throw here would end the whole process.
      }
      if (!error) return resolve();
      const tail = lastLines(String(stderr));
      reject(new SandboxSetupError('package-install-failed', `${path.basename(command)} ${args.join(' ')} failed: ${tail || error.message} (the whole output: ${options.log})`));
    });
  });
}

/** The variables a build step gets: how to reach the registry and the network, never the person's other secrets. */
export function buildEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept = Object.entries(env).filter(([name, value]) => value !== undefined && (BUILD_VARIABLES.has(name) || /^(npm_config_|NPM_CONFIG_|UV_)/.test(name)));
  return Object.fromEntries(kept) as Record<string, string>;
}

const BUILD_VARIABLES = new Set(['PATH', 'LANG', 'LC_ALL', 'TERM', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'PYTHON', 'CC', 'CXX', 'MAKEFLAGS']);

/** The packages of an npm install that have a build step (npm records it in its hidden lockfile). */
export function packagesWithBuildStep(staging: string): string[] {
  const lock = readJson(path.join(staging, 'node_modules', '.package-lock.json'));
  const packages = (lock?.packages ?? {}) as Record<string, { hasInstallScript?: boolean }>;
  return Object.entries(packages)
    .filter(([, entry]) => entry.hasInstallScript === true)
    .map(([where]) => where.replace(/^.*node_modules\//, ''));
}

/** Installs into a fresh folder and renames it into place, so two servers starting at once never share a half-written one. */
async function installOnce(finalDir: string, install: (dir: string) => Promise<void>): Promise<string> {
  if (fs.existsSync(path.join(finalDir, '.installed'))) return finalDir;
  const staging = `${finalDir}.staging-${process.pid}-${randomBytes(4).toString('hex')}`;
  fs.mkdirSync(staging, { recursive: true });
  try {
    await install(staging);
    fs.writeFileSync(path.join(staging, '.installed'), new Date().toISOString());
    try {
      fs.renameSync(staging, finalDir);
    } catch (error) {
      // Another start installed it meanwhile: use theirs.
      if (!fs.existsSync(path.join(finalDir, '.installed'))) throw error;
    }
    return finalDir;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** The folder a spec is installed in: readable, and unique per spec. */
export function packageFolderName(spec: string): string {
  const readable = spec.replace(/[^a-zA-Z0-9._@-]+/g, '_').slice(-60);
  return `${readable}-${createHash('sha256').update(spec).digest('hex').slice(0, 10)}`;
}

function binOf(packageDir: string, binName: string | undefined): string {
  const manifest = readJson(path.join(packageDir, 'package.json')) ?? {};
  const name = String(manifest.name ?? path.basename(packageDir));
  const bins: Record<string, string> = typeof manifest.bin === 'string' ? { [name.replace(/^@[^/]+\//, '')]: manifest.bin } : ((manifest.bin as Record<string, string>) ?? {});
  const entries = Object.entries(bins);
  const chosen = binName !== undefined ? bins[binName] : entries.length === 1 ? entries[0]?.[1] : bins[name.replace(/^@[^/]+\//, '')];
  if (!chosen) {
    throw new SandboxSetupError('npx-unsupported', `${name} has ${entries.length === 0 ? 'no command' : `several commands (${Object.keys(bins).join(', ')}); name one with -p`}.`);
  }
  return path.resolve(packageDir, chosen);
}

async function prepareNpx(input: PackageLaunchInput, npxPath: string): Promise<PackageLaunch> {
  const line = parseNpx(input.args);
  const cwd = input.cwd ?? process.cwd();
  const registry = registryName(line.spec);
  let packageDir = registry ? localPackage(registry.name, registry.version, cwd) : undefined;
  let source: PackageLaunch['source'] = 'local';
  /** Set when this start installed it. */
  let built: string[] | undefined;
  let installedLog: string | undefined;
  if (!packageDir) {
    // Paths in the spec are the user's, relative to the server's cwd.
    const spec = registry ? line.spec : /^(\.|\/|~)/.test(line.spec) || /\.(tgz|tar\.gz)$/.test(line.spec) ? path.resolve(cwd, line.spec) : line.spec;
    const npm = findOnPath('npm', path.dirname(npxPath)) ?? findOnPath('npm', input.env.PATH);
    if (!npm) throw new SandboxSetupError('package-install-failed', 'npm is not on PATH, so the package cannot be installed outside the sandbox.');
    const folder = packageFolderName(spec);
    const log = installLog(input.dataDir, folder);
    const dir = await installOnce(path.join(input.dataDir, 'sandbox', 'packages', folder), async (staging) => {
      fs.writeFileSync(log, '', { mode: 0o600 });
      fs.writeFileSync(path.join(staging, 'package.json'), '{ "private": true }\n');
      // npm runs on the node beside npx (nvm's, named by its full path, may not be on PATH).
      const env = { ...input.env, PATH: [path.dirname(npxPath), input.env.PATH].filter(Boolean).join(path.delimiter) };
      await run(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error', ...line.npmOptions, spec], { cwd: staging, env, log });
      built = packagesWithBuildStep(staging);
      if (built.length === 0) return;
      if (!input.build) throw new SandboxSetupError('package-install-failed', `${built.join(', ')} need${built.length === 1 ? 's' : ''} a build step, and there is no sandbox here to run it in.`);
      await input.build({ command: npm, args: ['rebuild', '--foreground-scripts', '--no-audit', '--no-fund', '--no-update-notifier'], dir: staging, env: buildEnvironment(env), log });
    });
    installedLog = built === undefined ? undefined : log;
    const dependencies = Object.keys((readJson(path.join(dir, 'package.json'))?.dependencies as Record<string, string>) ?? {});
    const name = registry?.name ?? dependencies[0];
    if (!name) throw new SandboxSetupError('package-install-failed', `npm installed nothing for ${spec}.`);
    packageDir = path.join(dir, 'node_modules', name);
    source = 'installed';
  }
  // A folder spec installs as a symlink: run (and bind) the real folder.
  packageDir = fs.realpathSync(packageDir);
  const bin = binOf(packageDir, line.binName);
  const runsOnNode = /^#!.*\bnode\b/.test(fs.readFileSync(bin, 'utf8').slice(0, 200));
  // The node beside npx is the one it belongs to (`~/.nvm/versions/node/v20/bin/npx`), then PATH's.
  const node = runsOnNode ? (findOnPath('node', path.dirname(npxPath)) ?? findOnPath('node', input.env.PATH) ?? process.execPath) : undefined;
  const installed = { source, packageDir, built, log: installedLog };
  return node ? { command: node, args: [bin, ...line.rest], ...installed } : { command: bin, args: line.rest, ...installed };
}

/** uvx [--from SPEC] NAME[@VERSION|==VERSION] ARGS… */
export function parseUvx(args: readonly string[]): { spec: string; command: string; rest: string[] } {
  let from: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--from') {
      from = args[++i];
      continue;
    }
    if (arg.startsWith('--from=')) {
      from = arg.slice('--from='.length);
      continue;
    }
    if (arg.startsWith('-')) throw new SandboxSetupError('npx-unsupported', `uvx option "${arg}" cannot be prepared outside the sandbox.`);
    const command = arg.replace(/(\[.*\])?(@|==).*$/, '').replace(/\[.*\]$/, '');
    return { spec: from ?? arg.replace('@', '=='), command, rest: args.slice(i + 1) };
  }
  throw new SandboxSetupError('npx-unsupported', 'uvx without a package to run.');
}

async function prepareUvx(input: PackageLaunchInput, uvxPath: string | undefined): Promise<PackageLaunch> {
  const line = parseUvx(input.args);
  const uv = (uvxPath && findOnPath('uv', path.dirname(uvxPath))) ?? findOnPath('uv', input.env.PATH);
  if (!uv) {
    throw new SandboxSetupError(
      'uv-missing',
      `This server starts with uvx, but uv is not on PATH, so its package "${line.spec}" cannot be prepared outside the sandbox. Install uv, or run this server without the sandbox.`,
    );
  }
  // One folder per package: a build step may write only its own (the `bin` links included).
  const folder = packageFolderName(line.spec);
  const toolDir = path.join(input.dataDir, 'sandbox', 'uv-tools', folder);
  const env = { ...input.env, UV_TOOL_DIR: toolDir, UV_TOOL_BIN_DIR: path.join(toolDir, 'bin') };
  const bin = path.join(toolDir, 'bin', line.command);
  let built: string[] | undefined;
  let log: string | undefined;
  if (!fs.existsSync(bin)) {
    log = installLog(input.dataDir, folder);
    fs.writeFileSync(log, '', { mode: 0o600 });
    fs.mkdirSync(toolDir, { recursive: true, mode: 0o700 });
    // The app's folder as cwd and --no-config: a uv.toml or pyproject.toml a server wrote is never read.
    // --no-build: wheels only, nothing of the package runs here.
    const install = ['tool', 'install', line.spec, '--no-config'];
    const unbuilt = await run(uv, [...install, '--no-build'], { cwd: toolDir, env, log }).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (unbuilt) {
      // A source distribution must be built: only in a sandbox of its own, writing only its tool folder.
      // Whatever the failure, the build attempt says it again if it was not about building.
      if (!input.build) throw unbuilt;
      built = [line.spec];
      await input.build({ command: uv, args: install, dir: toolDir, env: { ...buildEnvironment(env), UV_TOOL_DIR: toolDir, UV_TOOL_BIN_DIR: path.join(toolDir, 'bin') }, log });
    }
  }
  if (!fs.existsSync(bin)) throw new SandboxSetupError('package-install-failed', `uv installed ${line.spec} but it has no command "${line.command}".`);
  return { command: bin, args: line.rest, source: 'installed', packageDir: path.dirname(fs.realpathSync(bin)), built, log };
}

/** For an npx or uvx command, the package's own program to run instead; undefined for anything else. */
export async function preparePackageLaunch(input: PackageLaunchInput): Promise<PackageLaunch | undefined> {
  const name = path.basename(input.command);
  const located = () => (input.command.includes('/') ? path.resolve(input.cwd ?? process.cwd(), input.command) : findOnPath(name, input.env.PATH));
  if (name === 'npx') {
    const npx = located();
    if (!npx || !fs.existsSync(npx)) throw new SandboxSetupError('command-not-found', 'npx is not on PATH.');
    return prepareNpx(input, npx);
  }
  if (name === 'uvx') return prepareUvx(input, located());
  return undefined;
}
