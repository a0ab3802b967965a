// The contract's `useWith.*` channels: point another host's config at `mcp-roots proxy` for chosen
// registry servers (electron/import/use-with.ts writes, with a backup), or say what that would write.
import fs from 'node:fs';
import path from 'node:path';
import type { ParsedInput } from '../../shared/contract.js';
import type { ServerRecord } from '../../shared/domain.js';
import type { UseWithApplyResult, UseWithEntryView, UseWithPreview } from '../../shared/import-types.js';
import { CodedError } from '../../shared/result.js';
import { configLocations } from './config-locations.js';
import { HOST_LABELS, serversKey, type HostKind } from './host-kind.js';
import { parseJsonc, stripJsonc } from './jsonc.js';
import { installationLauncher, pathLauncher, proxyCommand, type ProxyLauncher } from './proxy-launcher.js';
import { useWith, withProxies, type UseWithOptions } from './use-with.js';
import { changes, serversDiff } from './use-with-diff.js';
import { defaultConfigDir } from '../host/registry/config-dir.js';
import { fsError, parseRootInput } from '../host/registry/file-uri.js';
import { withoutQuotedText } from './import-channels.js';
import type { RootsHost } from '../host/roots-host.js';

type UseWithInput = ParsedInput<'useWith.apply'>;
type Json = Record<string, unknown>;

interface UseWithPlan {
  kind: HostKind;
  file: string;
  servers: ServerRecord[];
  options: UseWithOptions & { launcher: ProxyLauncher };
}

export async function applyUseWithCommand(host: RootsHost, input: UseWithInput): Promise<UseWithApplyResult> {
  const { kind, file, servers, options } = plan(host, input);
  const result = await guarded(file, () => useWith(kind, file, servers, options));
  return {
    file: result.configPath,
    backup: result.backupPath,
    written: result.wrote ? result.entries.filter((entry) => !entry.unchanged).map((entry) => entry.entry) : [],
    unchanged: result.entries.filter((entry) => entry.unchanged).map((entry) => entry.entry),
    replaced: result.entries.filter((entry) => entry.replaced).map((entry) => entry.entry),
    commentsDropped: result.commentsDropped,
  };
}

/** Reads the file the way useWith does and reports the entries it would write; writes nothing. */
export async function previewUseWithCommand(host: RootsHost, input: UseWithInput): Promise<UseWithPreview> {
  const { kind, file, servers, options } = plan(host, input);
  const original = await guarded(file, () => readIfExists(file));
  const document = original === undefined ? {} : guardedSync(file, () => parseJsonc(original, file));
  if (!isJson(document)) throw new CodedError('invalid-input', `${file} is not a JSON object.`);
  serverMap(kind, document, options.project);
  // The very edit apply makes, so the preview and its diff cannot drift from what is written.
  const { next, entries: planned } = guardedSync(file, () => withProxies(kind, document, servers, options.launcher, options));
  const entries: UseWithEntryView[] = planned.map((planned, index) => {
    const { command, args } = proxyCommand(options.launcher, planned.server, options.configDir);
    return {
      serverId: servers[index]!.id,
      server: planned.server,
      entry: planned.entry,
      replaced: planned.replaced,
      unchanged: planned.unchanged,
      ...(planned.clash ? { clash: planned.clash, addAs: planned.addAs } : {}),
      command,
      args,
    };
  });
  const diff = serversDiff(kind, document, next, options.project);
  const changing = original === undefined || changes(diff);
  return { file, exists: original !== undefined, entries, commentsDropped: changing && original !== undefined && stripJsonc(original).stripped, diff };
}

function plan(host: RootsHost, input: UseWithInput): UseWithPlan {
  const workspace = input.workspace === undefined ? undefined : parseRootInput(input.workspace);
  const file = input.file === undefined ? defaultHostFile(input.host, workspace) : parseRootInput(input.file);
  if (input.project !== undefined) {
    // Checked, not normalized: it is a key in ~/.claude.json and must match Claude Code's spelling.
    parseRootInput(input.project);
    if (path.basename(file) !== '.claude.json') throw new CodedError('invalid-input', 'project is only for ~/.claude.json.');
  }
  const registry = host.registrySnapshot;
  const servers = [...new Set(input.serverIds)].map((serverId) => {
    const server = registry.servers.find((candidate) => candidate.id === serverId);
    if (!server) throw new CodedError('not-found', `No server with id ${serverId}.`);
    return server;
  });
  const configDir = host.configDir;
  return {
    kind: input.host,
    file,
    servers,
    options: {
      launcher: launcherFor(input.launcher),
      // The proxy finds the default registry itself; any other must be named on its command line.
      ...(path.resolve(configDir) !== path.resolve(defaultConfigDir()) ? { configDir } : {}),
      ...(input.project !== undefined ? { project: input.project } : {}),
      // The app always speaks for clashes (by server id on the wire; by name in the config).
      clashes: Object.fromEntries(servers.flatMap((server) => (input.clashes?.[server.id] ? [[server.name, input.clashes[server.id]!]] : []))),
    },
  };
}

function launcherFor(kind: UseWithInput['launcher']): ProxyLauncher {
  if (kind === 'path') return pathLauncher();
  try {
    return installationLauncher();
  } catch (error) {
    throw new CodedError('missing', (error as Error).message);
  }
}

/** The host's config to write: the first existing one of its kind and scope, else the standard place. */
function defaultHostFile(kind: HostKind, workspace: string | undefined): string {
  const scope = workspace ? 'workspace' : 'user';
  const candidates = configLocations({ workspaces: workspace ? [workspace] : [] }).filter(
    (source) => source.host === kind && source.scope === scope,
  );
  const chosen = candidates.find((source) => fs.existsSync(source.path)) ?? candidates[0];
  if (!chosen) throw new CodedError('invalid-input', `${HOST_LABELS[kind]} has no ${scope} config; give a file.`);
  return chosen.path;
}

/** The entries map useWith would edit: the user's servers, or a ~/.claude.json project's. */
function serverMap(kind: HostKind, document: Json, project: string | undefined): Json {
  const projects = document.projects;
  const container = project === undefined ? document : isJson(projects) && isJson(projects[project]) ? projects[project] : {};
  const current = container[serversKey(kind)] ?? {};
  if (!isJson(current)) throw new CodedError('invalid-input', `"${serversKey(kind)}" in the config is not an object.`);
  return { ...current };
}

function readIfExists(file: string): Promise<string | undefined> {
  return fs.promises.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** File errors get a code the UI can translate; parse errors lose V8's quote of the file. */
async function guarded<T>(file: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw recoded(error, file);
  }
}

function guardedSync<T>(file: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw recoded(error, file);
  }
}

function recoded(error: unknown, file: string): CodedError {
  if (error instanceof CodedError) return new CodedError(error.code, withoutQuotedText(error.message));
  if (typeof (error as NodeJS.ErrnoException)?.code === 'string') return fsError(error, file);
  return new CodedError('internal', withoutQuotedText((error as Error)?.message ?? String(error)));
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
