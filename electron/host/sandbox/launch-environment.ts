// What a server's launcher would have given it, and what a program that writes beside itself needs
// once its own folder is read-only: decided here, from the program the sandbox binds.
// - npx runs a package with its install's `node_modules/.bin` first on PATH; run directly, a server
//   that spawns a bin of a dependency failed (`spawn typescript-language-server ENOENT`).
// - Some servers keep their data beside their own script by default (server-memory's
//   memory.jsonl): read-only inside, so the app points them at their private HOME, unless the
//   person set the path.
// - A version manager's shim finds its root from HOME, which is private inside: the app names the
//   root the shim lies in (version-manager-shims.ts), unless the person set it.
import fs from 'node:fs';
import path from 'node:path';
import type { ShimNeeds } from './version-manager-shims.js';

/** Servers known to write beside their own program: the env variable that moves the file, and its name. */
export const DATA_BESIDE_PROGRAM: Readonly<Record<string, { variable: string; file: string }>> = {
  '@modelcontextprotocol/server-memory': { variable: 'MEMORY_FILE_PATH', file: 'memory.jsonl' },
};

export interface LaunchEnvironmentInput {
  /** The server's own env. */
  env: Readonly<Record<string, string>>;
  /** The PATH it would run with otherwise. */
  pathEnv: string | undefined;
  /** Set for npx servers: the package's folder. */
  packageDir?: string | undefined;
  /** The program's folders the sandbox binds (package roots among them). */
  programPaths: readonly string[];
  /** The private HOME (host path, the same inside). */
  home: string;
  /** Version managers whose shims the command runs through. */
  versionManagers?: readonly ShimNeeds[] | undefined;
}

export interface LaunchEnvironment {
  /** Variables to add to the server's env. */
  env: Record<string, string>;
  /** Each in words, for the self-check's detail. */
  notes: string[];
}

function packageName(dir: string): string | undefined {
  try {
    return String((JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name ?? '') || undefined;
  } catch {
    return undefined;
  }
}

/** Every `node_modules/.bin` from the package up, as npm exec puts them on PATH. */
export function npxBinFolders(packageDir: string): string[] {
  const folders: string[] = [];
  for (let dir = packageDir; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const bin = path.join(dir, 'node_modules', '.bin');
    if (fs.existsSync(bin)) folders.push(bin);
  }
  return folders;
}

export function launchEnvironment(input: LaunchEnvironmentInput): LaunchEnvironment {
  const env: Record<string, string> = {};
  const notes: string[] = [];
  if (input.packageDir) {
    const bins = npxBinFolders(input.packageDir);
    if (bins.length > 0) {
      env.PATH = [...bins, ...(input.env.PATH ?? input.pathEnv ?? '').split(path.delimiter).filter(Boolean)].join(path.delimiter);
      notes.push(`PATH starts with ${bins.join(', ')} (as npx gives it)`);
    }
  }
  const names = new Set([input.packageDir, ...input.programPaths].flatMap((dir) => (dir ? [packageName(dir)] : [])));
  for (const [name, data] of Object.entries(DATA_BESIDE_PROGRAM)) {
    if (!names.has(name) || input.env[data.variable] !== undefined) continue;
    env[data.variable] = path.join(input.home, data.file);
    notes.push(`${data.variable}=${env[data.variable]} (${name} writes beside its own program by default, which is read-only here)`);
  }
  for (const manager of input.versionManagers ?? []) {
    for (const [variable, value] of Object.entries(manager.env)) {
      if (input.env[variable] !== undefined || env[variable] !== undefined) continue;
      env[variable] = value;
      notes.push(`${variable}=${value} (${manager.manager} finds its root from HOME, which is private here)`);
    }
  }
  return { env, notes };
}
