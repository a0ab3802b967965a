// A server's config from command-line flags: whole for `servers add`, as a change for `servers set`.
// The on|off settings of a server are one table, so a new one (sandbox, network) is one line here
// and appears in `servers set`, its help and shell completion at once.
import path from 'node:path';
import { serverInputSchema, serverPatchSchema } from '../../shared/contract.js';
import type { HttpTransportConfig, PathMapping, StdioTransportConfig, TransportConfig } from '../../shared/domain.js';
import { CodedError } from '../../shared/result.js';
import { UsageError } from './exit-codes.js';
import type { ServerInput } from './registry-session.js';
import type { PathContext } from '../host/registry/root-input.js';

export interface OnOffSetting {
  /** The flag, `--NAME on|off`. */
  name: string;
  description: string;
  patch(on: boolean): Partial<ServerInput>;
  current(server: ServerInput): boolean;
}

export const ON_OFF_SETTINGS: readonly OnOffSetting[] = [
  { name: 'enabled', description: 'start the server (on) or keep it stopped (off)', patch: (on) => ({ enabled: on }), current: (s) => s.enabled },
  { name: 'sharing', description: 'offer it roots (on) or not even the capability (off)', patch: (on) => ({ sharing: on }), current: (s) => s.sharing },
  { name: 'sandbox', description: 'run it confined by the OS sandbox, where the app applies one (on) or not (off)', patch: (on) => ({ sandbox: on }), current: (s) => s.sandbox !== false },
  { name: 'network', description: 'network access from inside that sandbox (on) or none (off)', patch: (on) => ({ network: on }), current: (s) => s.network !== false },
  {
    name: 'own-sandboxes',
    description: "let it make sandboxes of its own inside that sandbox (on: a browser's own sandbox needs it) or not (off)",
    patch: (on) => ({ ownSandboxes: on }),
    current: (s) => s.ownSandboxes === true,
  },
  { name: 'ask-for-folders', description: 'ask you when it wants folders and has none (on) or not (off)', patch: (on) => ({ askForFolders: on }), current: (s) => s.askForFolders !== false },
];

export interface TransportFlags {
  command?: string;
  arg?: string[];
  env?: string[];
  cwd?: string;
  url?: string;
  header?: string[];
  transport?: 'http' | 'sse';
}

export interface TransportEditFlags extends TransportFlags {
  unsetEnv?: string[];
  unsetHeader?: string[];
  /** --no-cwd */
  noCwd?: boolean;
}

/** `servers add`: the transport the flags (or the words after `--`) describe. */
export function transportFromFlags(flags: TransportFlags, words: readonly string[], context: PathContext): TransportConfig {
  const stdio = commandOf(flags, words);
  if (stdio && flags.url !== undefined) throw new UsageError('Give a command or --url, not both.');
  if (stdio) {
    if (flags.header?.length || flags.transport) throw new UsageError('--header and --transport are for --url servers.');
    return {
      type: 'stdio',
      command: stdio.command,
      args: stdio.args,
      env: pairs(flags.env ?? [], '=', '--env'),
      ...(flags.cwd !== undefined ? { cwd: folder(flags.cwd, context) } : {}),
    };
  }
  if (flags.url !== undefined) {
    if (flags.env?.length || flags.arg?.length || flags.cwd !== undefined) throw new UsageError('--arg, --env and --cwd are for command servers.');
    return { type: flags.transport ?? 'http', url: flags.url, headers: pairs(flags.header ?? [], ':', '--header') };
  }
  throw new UsageError('A server needs a command (-- COMMAND [ARG...], or --command) or --url URL.');
}

export interface TransportEdit {
  transport: TransportConfig;
  /** What changed, in words, for the confirmation line. */
  changes: string[];
}

/** `servers set`: the current transport with the flags applied; undefined when no flag touches it. */
export function editTransport(current: TransportConfig, flags: TransportEditFlags, words: readonly string[], context: PathContext): TransportEdit | undefined {
  const stdio = commandOf(flags, words);
  if (stdio && flags.url !== undefined) throw new UsageError('Give a command or --url, not both.');
  if (stdio || (current.type === 'stdio' && flags.url === undefined)) {
    return editStdio(current, stdio, flags, context);
  }
  return editHttp(current, flags);
}

function editStdio(current: TransportConfig, command: { command: string; args: string[] } | undefined, flags: TransportEditFlags, context: PathContext): TransportEdit | undefined {
  if (flags.header?.length || flags.unsetHeader?.length || flags.transport) {
    throw new UsageError(`--header, --unset-header and --transport are for --url servers${current.type === 'stdio' ? '; this one runs a command' : ''}.`);
  }
  const base: StdioTransportConfig = current.type === 'stdio' ? current : { type: 'stdio', command: '', args: [], env: {} };
  const changes: string[] = current.type === 'stdio' ? [] : [`now runs a command (was ${current.type}; its headers are dropped)`];
  const next: StdioTransportConfig = { ...base, env: { ...base.env } };
  if (command) {
    next.command = command.command;
    next.args = command.args;
    changes.push('command');
  } else if (flags.arg !== undefined) {
    next.args = flags.arg;
    changes.push('args');
  }
  applyPairs(next.env, flags.env, flags.unsetEnv, '=', '--env', 'env', changes);
  if (flags.noCwd) {
    delete next.cwd;
    changes.push('cwd');
  } else if (flags.cwd !== undefined) {
    next.cwd = folder(flags.cwd, context);
    changes.push('cwd');
  }
  return changes.length > 0 ? { transport: next, changes } : undefined;
}

function editHttp(current: TransportConfig, flags: TransportEditFlags): TransportEdit | undefined {
  if (flags.arg !== undefined || flags.env?.length || flags.unsetEnv?.length || flags.cwd !== undefined || flags.noCwd) {
    throw new UsageError(`--arg, --env, --unset-env and --cwd are for command servers${current.type === 'stdio' ? '' : '; this one is reached by URL'}.`);
  }
  if (current.type === 'stdio' && flags.url === undefined) return undefined;
  const base: HttpTransportConfig = current.type === 'stdio' ? { type: 'http', url: '', headers: {} } : current;
  const changes: string[] = current.type === 'stdio' ? [`now reached by URL (was a command; its env is dropped)`] : [];
  const next: HttpTransportConfig = { ...base, headers: { ...base.headers } };
  if (flags.url !== undefined) {
    next.url = flags.url;
    changes.push('url');
  }
  if (flags.transport !== undefined) {
    next.type = flags.transport;
    changes.push('transport');
  }
  applyPairs(next.headers, flags.header, flags.unsetHeader, ':', '--header', 'headers', changes);
  return changes.length > 0 ? { transport: next, changes } : undefined;
}

/**
 * `servers set --map HOST=SERVER --unmap HOST`: the server's path map with the flags applied (a
 * host folder mapped again replaces its mapping); undefined when neither flag is given. HOST is a
 * folder as typed (., ~, relative), SERVER the path the server sees it at, as typed.
 */
export function editPathMap(
  current: readonly PathMapping[] | undefined,
  map: readonly string[] | undefined,
  unmap: readonly string[] | undefined,
  context: PathContext,
): { pathMap: PathMapping[]; changes: string[] } | undefined {
  if (!map?.length && !unmap?.length) return undefined;
  const next = new Map((current ?? []).map((mapping) => [mapping.hostPath, mapping.serverPath]));
  const changes: string[] = [];
  for (const host of unmap ?? []) {
    const hostPath = folder(host, context);
    changes.push(next.delete(hostPath) ? `${hostPath} no longer mapped` : `${hostPath} was not mapped`);
  }
  for (const item of map ?? []) {
    const at = item.indexOf('=');
    if (at <= 0 || at === item.length - 1) throw new UsageError(`--map takes HOST=SERVER (a folder here, the path the server sees it at), got "${item}".`);
    const hostPath = folder(item.slice(0, at), context);
    const serverPath = item.slice(at + 1);
    next.set(hostPath, serverPath);
    changes.push(`${hostPath} seen at ${serverPath}`);
  }
  return { pathMap: [...next].map(([hostPath, serverPath]) => ({ hostPath, serverPath })), changes };
}

/** Checks a whole server (add) or a change (set) against the contract's own schema. */
export function checkedServer<T extends Partial<ServerInput>>(input: T, partial: boolean): T {
  // A change is checked without defaults: they would undo settings it does not name.
  const schema = partial ? serverPatchSchema : serverInputSchema;
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new CodedError('invalid-input', result.error.issues.map((issue) => `${issue.path.join('.') || 'server'}: ${issue.message}`).join('; '));
  }
  return input;
}

/** `-- CMD ARG...` or `--command CMD [--arg A]...`, never both. */
function commandOf(flags: TransportFlags, words: readonly string[]): { command: string; args: string[] } | undefined {
  if (words.length > 0) {
    if (flags.command !== undefined || flags.arg !== undefined) throw new UsageError('Give the command after -- or with --command/--arg, not both.');
    const [command, ...args] = words;
    return { command: command as string, args };
  }
  if (flags.command !== undefined) return { command: flags.command, args: flags.arg ?? [] };
  return undefined;
}

function applyPairs(
  target: Record<string, string>,
  set: string[] | undefined,
  unset: string[] | undefined,
  separator: string,
  flag: string,
  label: string,
  changes: string[],
): void {
  let changed = false;
  for (const key of unset ?? []) {
    if (!(key in target)) throw new CodedError('not-found', `There is no ${label === 'env' ? 'env variable' : 'header'} ${key} to unset.`);
    delete target[key];
    changed = true;
  }
  for (const [key, value] of Object.entries(pairs(set ?? [], separator, flag))) {
    target[key] = value;
    changed = true;
  }
  if (changed) changes.push(label);
}

function pairs(items: readonly string[], separator: string, flag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    if (at <= 0) throw new UsageError(`${flag} takes KEY${separator}VALUE, got "${item}".`);
    // "K: V" has a space after the colon by habit; an env value is taken exactly as typed.
    const value = item.slice(at + 1);
    result[item.slice(0, at).trim()] = separator === ':' ? value.trim() : value;
  }
  return result;
}

/** A working folder is stored absolute: relative to where the command was typed, `~` to home. */
function folder(value: string, context: PathContext): string {
  if (value === '~' || value.startsWith('~/')) return path.join(context.home, value.slice(1));
  return path.resolve(context.cwd, value);
}
