// The contract's `import.*` channels: preview other hosts' configs for a UI (secrets masked), then
// import the chosen candidates. Each host keeps its last preview's sources in memory, named by a
// previewId, so an apply re-reads exactly those files and a stale or foreign key changes nothing.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { ParsedInput } from '../../shared/contract.js';
import type { ImportApplyResult, ImportCandidateView, ImportPreviewView, ImportSourceView } from '../../shared/import-types.js';
import { CodedError, type ErrorCode } from '../../shared/result.js';
import { maskTransport } from '../../shared/secrets.js';
import { applyImport } from './apply-import.js';
import { existingConfigSources, type ConfigSource } from './config-locations.js';
import { HOST_KINDS, type HostKind } from './host-kind.js';
import { previewImport, type ImportCandidate, type ImportPreview } from './preview-import.js';
import { argumentFolderViews } from '../host/access/argument-folder-views.js';
import { PASTED_SOURCE, snippetConfig } from './snippet-config.js';
import { fsError, parseRootInput } from '../host/registry/file-uri.js';
import type { RootsHost } from '../host/roots-host.js';

interface LastPreview {
  previewId: string;
  sources: ConfigSource[];
  /** A pasted snippet stands in for a file: kept here, as the person cannot re-paste it for apply. */
  snippet?: string;
}

const lastPreviews = new WeakMap<RootsHost, LastPreview>();
/** One apply at a time per host: two quick clicks must not both see the servers as new. */
const applying = new WeakMap<RootsHost, Promise<unknown>>();

export async function previewImportCommand(host: RootsHost, input: ParsedInput<'import.preview'>): Promise<ImportPreviewView> {
  const { sources, picked } = importSources(input);
  const { preview, failures } = await readPreview(host, sources);
  const previewId = randomUUID();
  lastPreviews.set(host, { previewId, sources });
  return {
    previewId,
    sources: sources.map((source) => sourceView(source, picked.has(source.path), preview, failures)),
    candidates: preview.candidates.map(candidateView),
    skipped: preview.skipped,
  };
}

/** A pasted `mcpServers` / `servers` snippet, previewed like a config file of the host whose shape it has. */
export async function previewSnippetCommand(host: RootsHost, input: ParsedInput<'import.snippet'>): Promise<ImportPreviewView> {
  const snippet = snippetConfig(input.text);
  const sources: ConfigSource[] = [{ host: snippet.host, path: PASTED_SOURCE, scope: 'user' }];
  const { preview } = await readPreview(host, sources, snippet.text);
  const previewId = randomUUID();
  lastPreviews.set(host, { previewId, sources, snippet: snippet.text });
  return {
    previewId,
    sources: [{ host: snippet.host, path: PASTED_SOURCE, scope: 'pasted' }],
    candidates: preview.candidates.map(candidateView),
    skipped: preview.skipped,
  };
}

export function applyImportCommand(host: RootsHost, input: ParsedInput<'import.apply'>): Promise<ImportApplyResult> {
  const run = (applying.get(host) ?? Promise.resolve()).catch(() => undefined).then(() => applyChosen(host, input));
  applying.set(host, run);
  return run;
}

async function applyChosen(host: RootsHost, input: ParsedInput<'import.apply'>): Promise<ImportApplyResult> {
  const last = lastPreviews.get(host);
  if (last === undefined || last.previewId !== input.previewId) {
    throw new CodedError('not-found', 'That import preview is no longer current: preview again.');
  }
  // Re-read: the files (or the registry) may have changed since the preview was shown.
  const { preview } = await readPreview(host, last.sources, last.snippet);
  const byKey = new Map(preview.candidates.map((candidate) => [candidate.key, candidate]));
  const keys = [...new Set(input.keys)];
  const missing = keys.filter((key) => !byKey.has(key));
  if (missing.length > 0) {
    const shown = missing.slice(0, 3).join(', ') + (missing.length > 3 ? ` and ${missing.length - 3} more` : '');
    throw new CodedError('not-found', `Not in the current config files: ${shown}. Preview again; nothing was imported.`);
  }
  const chosen = keys.map((key) => byKey.get(key) as ImportCandidate);
  const taken = chosen.filter((candidate) => !isImportable(candidate));
  if (taken.length > 0) {
    const names = taken.map((candidate) => `"${candidate.originalName}"`).join(', ');
    throw new CodedError('duplicate', `Already in the registry, repeated or run through mcp-roots proxy: ${names}. Nothing was imported.`);
  }
  const names = input.names ?? {};
  const outcome = await applyImport(
    host,
    chosen.map((candidate) => ({
      candidate,
      name: Object.hasOwn(names, candidate.key) ? names[candidate.key] : undefined,
      values: input.values,
      start: input.start,
    })),
  );
  const servers = new Map(host.getState().servers.map((server) => [server.id, server]));
  return {
    added: outcome.added.flatMap(({ key, serverId, unresolved }) => {
      const server = servers.get(serverId);
      return server ? [{ key, server, unresolved }] : [];
    }),
    failed: outcome.failed.map(({ key, name, code, message }) => ({ key, name, error: { code, message } })),
  };
}

/** `files` alone: exactly those. Otherwise the known locations of `from` (default all), user and workspace. */
function importSources(input: ParsedInput<'import.preview'>): { sources: ConfigSource[]; picked: Set<string> } {
  const files: ConfigSource[] = (input.files ?? []).map((file) => ({ host: file.host, path: parseRootInput(file.path), scope: 'user' }));
  const workspaces = (input.workspaces ?? []).map((workspace) => parseRootInput(workspace));
  const discover = input.files === undefined || input.from !== undefined || input.workspaces !== undefined;
  const from: readonly HostKind[] = input.from ?? HOST_KINDS;
  const found = discover ? existingConfigSources({ workspaces }).filter((source) => from.includes(source.host)) : [];
  const sources = new Map<string, ConfigSource>();
  for (const source of [...found, ...files]) if (!sources.has(source.path)) sources.set(source.path, source);
  return { sources: [...sources.values()], picked: new Set(files.map((file) => file.path)) };
}

async function readPreview(host: RootsHost, sources: readonly ConfigSource[], snippet?: string) {
  const failures = new Map<string, ErrorCode>();
  const readFile = async (file: string) => {
    if (snippet !== undefined && file === PASTED_SOURCE) return snippet;
    try {
      return await fs.readFile(file, 'utf8');
    } catch (error) {
      const coded = fsError(error, file);
      failures.set(file, coded.code);
      throw coded;
    }
  };
  const preview = await previewImport(sources, host.registrySnapshot, readFile);
  return { preview, failures };
}

function sourceView(source: ConfigSource, picked: boolean, preview: ImportPreview, failures: ReadonlyMap<string, ErrorCode>): ImportSourceView {
  const error = preview.errors.find((candidate) => candidate.source === source.path);
  return {
    host: source.host,
    path: source.path,
    scope: picked ? 'picked' : source.scope,
    ...(error ? { error: { code: failures.get(source.path) ?? 'invalid-input', message: withoutQuotedText(error.message) } } : {}),
  };
}

function candidateView(candidate: ImportCandidate): ImportCandidateView {
  return {
    key: candidate.key,
    name: candidate.name,
    originalName: candidate.originalName,
    host: candidate.host,
    source: candidate.source,
    project: candidate.project,
    transport: maskTransport(candidate.transport),
    variables: candidate.variables,
    // Picked field by field: the host's input objects are loose, and a password default is a secret.
    inputs: candidate.inputs.map((input) => ({
      id: input.id,
      description: input.description,
      password: input.password === true,
      ...(input.password === true ? {} : { default: input.default }),
    })),
    duplicateOf: candidate.duplicateOf,
    sameAs: candidate.sameAs,
    proxiedServer: candidate.proxiedServer,
    disabledInHost: candidate.disabledInHost,
    importable: isImportable(candidate),
    // A new server has no grants yet: every folder its arguments name bypasses roots.
    argumentFolders: argumentFolderViews(candidate.transport, [], undefined),
    notes: candidate.notes,
  };
}

function isImportable(candidate: ImportCandidate): boolean {
  return candidate.duplicateOf === undefined && candidate.sameAs === undefined && candidate.proxiedServer === undefined;
}

/** V8 quotes the start of an unparsable file in its message ("xxxnot-a-r"...): it may be a secret. */
export function withoutQuotedText(message: string): string {
  return message.replace(/, ".*"(\.\.\.)? is not valid JSON/s, '');
}
