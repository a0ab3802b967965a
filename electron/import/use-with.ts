// "Use with <host>": rewrite a host's config so the chosen servers run through `mcp-roots proxy`.
// Refuses a file it cannot parse; writes a timestamped backup of the original next to it first;
// changes only the chosen servers' entries and keeps every other key as it was (comments in a
// JSONC file cannot survive a rewrite: the result says so, and the backup keeps them).
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFile as atomicWriteFile } from 'atomically';
import type { ServerRecord } from '../../shared/domain.js';
import { CodedError } from '../../shared/result.js';
import { convertEntry, serverIdentity } from './entry-transport.js';
import { hostEntrySchema } from './host-config-schema.js';
import { serversKey, type HostKind } from './host-kind.js';
import { parseJsonc, stripJsonc } from './jsonc.js';
import { installationLauncher, proxiedServerOf, proxyCommand, type ProxyCommand, type ProxyLauncher } from './proxy-launcher.js';
import { readHostConfig } from './read-host-config.js';

export interface UseWithOptions {
  launcher?: ProxyLauncher;
  /** Written as --config-dir when the registry is not in the default place. */
  configDir?: string;
  /** ~/.claude.json only: write into that project's (local-scope) servers instead of the user's. */
  project?: string;
  now?: Date;
  /**
   * What to do, per server name, where the host already has a different server of that name (a
   * clash): replace it, or add ours beside it as NAME-2. Given (the app's dialog), a clash without
   * a choice is left out of a preview and refused by a write: nothing is replaced by default.
   * Absent (the command line), a clash is replaced as before.
   */
  clashes?: Readonly<Record<string, ClashChoice>>;
}

export type ClashChoice = 'replace' | 'add';

/** `undecided`: a clash the caller has not chosen for yet. */
export type ClashState = ClashChoice | 'undecided';

export interface UseWithResult {
  configPath: string;
  /** Undefined when there was no file to back up (a new one was created). */
  backupPath?: string | undefined;
  /**
   * `unchanged`: it already ran through the proxy exactly so. `clash`: the host had a different
   * server under this server's name; `addAs` is the free name it would be added under.
   */
  entries: { server: string; entry: string; replaced: boolean; unchanged: boolean; clash?: ClashState; addAs?: string }[];
  commentsDropped: boolean;
  /** Nothing to change: nothing was written and no backup made. */
  wrote: boolean;
}

type Json = Record<string, unknown>;

export async function useWith(
  host: HostKind,
  configPath: string,
  servers: readonly Pick<ServerRecord, 'name' | 'transport'>[],
  options: UseWithOptions = {},
): Promise<UseWithResult> {
  const original = await readIfExists(configPath);
  const document = original === undefined ? {} : parseJsonc(original, configPath);
  if (!isJson(document)) throw new CodedError('invalid-input', `${configPath} is not a JSON object; nothing was written.`);
  const launcher = options.launcher ?? installationLauncher();
  const { next, entries } = withProxies(host, document, servers, launcher, options);
  const undecided = entries.filter((entry) => entry.clash === 'undecided').map((entry) => entry.server);
  if (undecided.length > 0) {
    throw new CodedError('invalid-input', `${configPath} already has a different server named ${undecided.join(', ')}: choose to add it under another name or to replace it; nothing was written.`);
  }
  // A second run with nothing to change writes nothing and leaves no backup behind.
  if (original !== undefined && entries.every((entry) => entry.unchanged)) {
    return { configPath, entries, commentsDropped: false, wrote: false };
  }

  const backupPath = original === undefined ? undefined : await backup(configPath, options.now ?? new Date());
  // The host may have rewritten its file meanwhile (Claude Code does often): never clobber that.
  if ((await readIfExists(configPath)) !== original) {
    throw new CodedError('store-failed', `${configPath} changed while it was being updated; nothing was written. Try again.`);
  }
  const text = `${JSON.stringify(next, null, indentOf(original))}\n`;
  // Proof before writing: what we write must read back as a config of that host.
  readHostConfig(host, text, configPath);
  await fs.mkdir(path.dirname(configPath), { recursive: true });
  const mode = original === undefined ? 0o600 : (await fs.stat(configPath)).mode & 0o777;
  await atomicWriteFile(configPath, text, { mode });
  return { configPath, backupPath, entries, commentsDropped: original !== undefined && stripJsonc(original).stripped, wrote: true };
}

/** The config with these servers' entries pointing at the proxy; shared by apply and preview. */
export function withProxies(
  host: HostKind,
  document: Json,
  servers: readonly Pick<ServerRecord, 'name' | 'transport'>[],
  launcher: ProxyLauncher,
  options: UseWithOptions,
): { next: Json; entries: UseWithResult['entries'] } {
  const key = serversKey(host);
  const projects = document.projects;
  const container: Json = options.project === undefined ? document : isJson(projects) && isJson(projects[options.project]) ? projects[options.project] as Json : {};
  const current = container[key] ?? {};
  if (!isJson(current)) throw new CodedError('invalid-input', `"${key}" in the config is not an object; nothing was written.`);
  const map: Json = { ...current };
  const entries: UseWithResult['entries'] = [];
  for (const server of servers) {
    const written = hostEntry(host, proxyCommand(launcher, server.name, options.configDir));
    const existing = matchingEntry(map, server);
    if (existing === undefined && server.name in map && options.clashes !== undefined) {
      // Someone else's server under this name: replaced or joined only as the person chose.
      const addAs = freeName(map, server.name);
      const choice = options.clashes[server.name];
      if (choice === undefined) {
        entries.push({ server: server.name, entry: server.name, replaced: false, unchanged: false, clash: 'undecided', addAs });
        continue;
      }
      const entry = choice === 'add' ? addAs : server.name;
      map[entry] = written;
      entries.push({ server: server.name, entry, replaced: choice === 'replace', unchanged: false, clash: choice, addAs });
      continue;
    }
    // Without clash choices (the command line) an entry of the same name is replaced, as before.
    const entry = existing ?? server.name;
    const unchanged = existing !== undefined && JSON.stringify(map[existing]) === JSON.stringify(written);
    const replaced = (existing !== undefined || server.name in map) && !unchanged;
    map[entry] = written;
    entries.push({ server: server.name, entry, replaced, unchanged });
  }
  const updated = { ...container, [key]: map };
  if (options.project === undefined) return { next: { ...document, ...updated }, entries };
  return { next: { ...document, projects: { ...(isJson(projects) ? projects : {}), [options.project]: updated } }, entries };
}

/**
 * The host's entry for this server: one already running it through the proxy (a second run finds
 * its own first write, also under NAME-2), else one with the same command/URL, preferring its own
 * name. Undefined when neither: then an entry of the same name is another server (a clash).
 */
function matchingEntry(map: Json, server: Pick<ServerRecord, 'name' | 'transport'>): string | undefined {
  const found = sameServerEntries(map, server);
  return found.includes(server.name) ? server.name : found[0];
}

function sameServerEntries(map: Json, server: Pick<ServerRecord, 'name' | 'transport'>): string[] {
  const identity = serverIdentity(server.transport);
  const converted = (name: string) => {
    const parsed = hostEntrySchema.safeParse(map[name]);
    const entry = parsed.success ? convertEntry(parsed.data) : undefined;
    return entry !== undefined && 'transport' in entry ? entry.transport : undefined;
  };
  const proxied = Object.keys(map).filter((name) => {
    const transport = converted(name);
    return transport?.type === 'stdio' && proxiedServerOf(transport.command, transport.args) === server.name;
  });
  if (proxied.length > 0) return proxied;
  return Object.keys(map).filter((name) => {
    const transport = converted(name);
    return transport !== undefined && serverIdentity(transport) === identity;
  });
}

/** NAME-2, NAME-3…: the first name the host's config does not use yet. */
function freeName(map: Json, name: string): string {
  for (let n = 2; ; n++) if (!(`${name}-${n}` in map)) return `${name}-${n}`;
}

function hostEntry(host: HostKind, { command, args, env }: ProxyCommand): Json {
  const withEnv = env && Object.keys(env).length > 0 ? { env } : {};
  if (host === 'vscode') return { type: 'stdio', command, args, ...withEnv };
  if (host === 'claude-code') return { type: 'stdio', command, args, env: env ?? {} };
  return { command, args, ...withEnv };
}

async function backup(file: string, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let n = 1; ; n++) {
    const target = `${file}.${stamp}${n > 1 ? `-${n}` : ''}.bak`;
    try {
      await fs.copyFile(file, target, fs.constants.COPYFILE_EXCL);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Keeps the file's own indentation, so the diff is only the entries we changed. */
function indentOf(text: string | undefined): string | number {
  const match = text === undefined ? null : /\n([ \t]+)\S/.exec(text);
  return match?.[1] ?? 2;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
