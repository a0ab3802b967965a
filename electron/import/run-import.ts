// The CLI's `import` and `use-with` commands, as functions the CLI calls with parsed flags.
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { maskTransport } from '../../shared/secrets.js';
import { CodedError, toHostError } from '../../shared/result.js';
import { findServerRef } from '../host/registry/registry-refs.js';
import { defaultConfigDir } from '../host/registry/config-dir.js';
import { openRegistryCodec } from '../host/registry/keyring-codec.js';
import { RegistryEditor } from '../host/registry/registry-commands.js';
import { applyImport } from './apply-import.js';
import { configLocations, existingConfigSources, type ConfigSource } from './config-locations.js';
import { HOST_KINDS, HOST_LABELS, inferHostKind, isHostKind, type HostKind } from './host-kind.js';
import { importable, previewImport, type ImportCandidate } from './preview-import.js';
import { installationLauncher, pathLauncher } from './proxy-launcher.js';
import { useWith } from './use-with.js';

interface Output {
  out?: Writable;
  err?: Writable;
}

export interface RunImportOptions extends Output {
  configDir: string;
  /** --from KIND (repeatable): which hosts' known locations to read; default all. */
  from?: string[];
  /** --file PATH (repeatable): read this file; its host comes from --host or its name. */
  files?: string[];
  host?: string;
  /** --workspace DIR (repeatable): project folders whose workspace configs count; default the cwd. */
  workspaces?: string[];
  /** --apply: import; without it only the preview is shown. */
  apply?: boolean;
  /** Positional NAMEs: import only these (original names); default every new server. */
  only?: string[];
  /** --set '${input:token}=VALUE' (repeatable): values for variables. */
  values?: string[];
  json?: boolean;
}

export async function runImport(options: RunImportOptions): Promise<number> {
  const { out = process.stdout, err = process.stderr } = options;
  let editor: RegistryEditor | undefined;
  try {
    const sources = importSources(options);
    editor = await RegistryEditor.open(options.configDir, { secrets: await openRegistryCodec(options.configDir), writer: 'cli' });
    const preview = await previewImport(sources, editor.registry);
    if (!options.apply) {
      out.write(options.json ? `${JSON.stringify(maskPreview(preview), null, 2)}\n` : `${formatPreview(sources, preview)}\n`);
      return preview.errors.length > 0 && preview.candidates.length === 0 ? 1 : 0;
    }
    const chosen = options.only?.length
      ? preview.candidates.filter((candidate) => options.only?.includes(candidate.originalName) && candidate.proxiedServer === undefined)
      : importable(preview);
    const values = pairs(options.values ?? []);
    const outcome = await applyImport(editor, chosen.map((candidate) => ({ candidate, values })));
    if (options.json) out.write(`${JSON.stringify(outcome, null, 2)}\n`);
    else {
      for (const added of outcome.added) {
        const why = added.unresolved.length > 0 ? `, disabled until ${added.unresolved.join(' ')} is filled in` : added.enabled ? '' : ', disabled as in the host';
        out.write(`imported ${added.name} (${added.serverId})${why}; no folders granted\n`);
      }
      for (const failed of outcome.failed) err.write(`not imported ${failed.name}: ${failed.message}\n`);
      if (outcome.added.length === 0 && outcome.failed.length === 0) out.write('nothing to import\n');
    }
    return outcome.failed.length > 0 ? 1 : 0;
  } catch (error) {
    err.write(`mcp-roots: ${toHostError(error).message}\n`);
    return toHostError(error).code === 'invalid-input' ? 2 : 1;
  } finally {
    await editor?.close();
  }
}

export interface RunUseWithOptions extends Output {
  configDir: string;
  /** The host kind: claude-desktop | vscode | cursor | claude-code. */
  host: string;
  /** Registry servers (names or ids) to run through the proxy. */
  servers: string[];
  /** --file PATH: the host's config; default its user config on this platform. */
  file?: string;
  /** --workspace DIR: write the workspace config instead (.vscode/mcp.json, .cursor/mcp.json, .mcp.json). */
  workspace?: string;
  /** --project DIR: ~/.claude.json only, that project's servers. */
  project?: string;
  /** --launcher node|path (default node: full paths, the installed app's executable or node + bin/mcp-roots.js). */
  launcher?: string;
  /**
   * --on-clash add|replace: where the host has a different server of the same name, add ours beside
   * it (NAME-2) or replace it. Absent: such a clash is refused and nothing is written, as the app asks
   * first (#30 item 3: the command line replaced it silently).
   */
  onClash?: string;
  json?: boolean;
}

export async function runUseWith(options: RunUseWithOptions): Promise<number> {
  const { out = process.stdout, err = process.stderr } = options;
  let editor: RegistryEditor | undefined;
  try {
    if (!isHostKind(options.host)) throw new CodedError('invalid-input', `use-with takes one of: ${HOST_KINDS.join(', ')}.`);
    if (options.servers.length === 0) throw new CodedError('invalid-input', 'use-with needs at least one SERVER.');
    if (options.launcher !== undefined && options.launcher !== 'node' && options.launcher !== 'path') {
      throw new CodedError('invalid-input', '--launcher is node or path.');
    }
    if (options.onClash !== undefined && options.onClash !== 'add' && options.onClash !== 'replace') throw new CodedError('invalid-input', '--on-clash is add or replace.');
    editor = await RegistryEditor.open(options.configDir, { secrets: await openRegistryCodec(options.configDir), writer: 'cli' });
    const registry = editor.registry;
    const records = options.servers.map((ref) => findServerRef(registry, ref));
    const file = options.file ?? defaultHostFile(options.host, options.workspace);
    const onClash = options.onClash as 'add' | 'replace' | undefined;
    const result = await useWith(options.host, file, records, {
      launcher: options.launcher === 'path' ? pathLauncher() : installationLauncher(),
      // Every clash decided by the flag, or none (then a clash is refused, naming the flag).
      clashes: Object.fromEntries(onClash ? records.map((record) => [record.name, onClash]) : []),
      ...(path.resolve(options.configDir) !== path.resolve(defaultConfigDir()) ? { configDir: options.configDir } : {}),
      ...(options.project ? { project: options.project } : {}),
    });
    if (options.json) out.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      out.write(`${HOST_LABELS[options.host]}: ${result.configPath}\n`);
      for (const entry of result.entries) {
        const how = entry.unchanged ? 'unchanged' : entry.replaced ? (entry.clash === 'replace' ? 'replaced the host\'s own server of that name' : 'replaced') : entry.clash === 'add' ? `added beside the host's own ${entry.server}` : 'added';
        out.write(`  ${entry.entry} -> mcp-roots proxy ${entry.server} (${how})\n`);
      }
      // Nothing written: no backup, no new file, nothing for the host to pick up.
      if (!result.wrote) out.write('already set up; nothing changed\n');
      else {
        out.write(result.backupPath ? `backup: ${result.backupPath}\n` : 'no previous file: created a new one\n');
        if (result.commentsDropped) out.write('note: the comments of the original are only in the backup\n');
        out.write(`Restart ${HOST_LABELS[options.host]} to pick up the change.\n`);
      }
    }
    return 0;
  } catch (error) {
    const { code, message } = toHostError(error);
    // A clash: the two ways on, as the app's dialog offers them.
    const clash = /already has a different server named/.test(message) ? ' Run it again with --on-clash add (ours as NAME-2 beside it) or --on-clash replace.' : '';
    err.write(`mcp-roots: ${message}${clash}\n`);
    return code === 'invalid-input' ? 2 : 1;
  } finally {
    await editor?.close();
  }
}

function importSources(options: RunImportOptions): ConfigSource[] {
  if (options.files?.length) {
    return options.files.map((file) => {
      const kind = options.host ?? inferHostKind(file);
      if (!isHostKind(kind)) throw new CodedError('invalid-input', `Cannot tell which host ${file} belongs to; add --host ${HOST_KINDS.join('|')}.`);
      return { host: kind, path: path.resolve(file), scope: 'user' };
    });
  }
  const from = options.from?.length ? options.from : [...HOST_KINDS];
  for (const kind of from) if (!isHostKind(kind)) throw new CodedError('invalid-input', `--from takes one of: ${HOST_KINDS.join(', ')}.`);
  const workspaces = (options.workspaces?.length ? options.workspaces : [process.cwd()]).map((dir) => path.resolve(dir));
  return existingConfigSources({ workspaces }).filter((source) => from.includes(source.host));
}

/** The host's config to write: the first existing one of its kind and scope, else the standard place. */
function defaultHostFile(kind: HostKind, workspace?: string): string {
  const scope = workspace ? 'workspace' : 'user';
  const candidates = configLocations({ workspaces: workspace ? [path.resolve(workspace)] : [] }).filter(
    (source) => source.host === kind && source.scope === scope,
  );
  const chosen = candidates.find((source) => fs.existsSync(source.path)) ?? candidates[0];
  if (!chosen) throw new CodedError('invalid-input', `${HOST_LABELS[kind]} has no ${scope} config; give --file.`);
  return chosen.path;
}

function formatPreview(sources: ConfigSource[], preview: Awaited<ReturnType<typeof previewImport>>): string {
  if (sources.length === 0) return 'No host configs found (looked for Claude Desktop, VS Code, Cursor and Claude Code).';
  const lines: string[] = [];
  for (const source of sources) {
    lines.push(`${HOST_LABELS[source.host]}  ${source.path}`);
    for (const candidate of preview.candidates.filter((c) => c.source === source.path)) lines.push(`  ${describe(candidate)}`);
    for (const skipped of preview.skipped.filter((s) => s.source === source.path)) lines.push(`  ! ${skipped.name}: skipped, ${skipped.reason}`);
    for (const error of preview.errors.filter((e) => e.source === source.path)) lines.push(`  ! ${error.message}`);
  }
  lines.push('', '+ new   = already in the registry   ~ repeat of an entry above   > already runs through mcp-roots proxy');
  lines.push('Run again with --apply to import the + entries. Imported servers see no folders until you grant some.');
  return lines.join('\n');
}

function describe(candidate: ImportCandidate): string {
  const t = candidate.transport;
  const what = t.type === 'stdio' ? `${t.command} ${t.args.join(' ')}`.trim() : `${t.type} ${t.url}`;
  const mark = candidate.proxiedServer ? '>' : candidate.duplicateOf ? '=' : candidate.sameAs ? '~' : '+';
  const extras = [
    candidate.project ? `project ${candidate.project}` : '',
    candidate.name !== candidate.originalName ? `as "${candidate.name}"` : '',
    candidate.variables.length > 0 ? `variables ${candidate.variables.join(' ')}` : '',
    candidate.disabledInHost ? 'disabled in the host' : '',
    ...candidate.notes,
  ].filter(Boolean);
  return `${mark} ${candidate.originalName}  ${what}${extras.length ? `  [${extras.join('; ')}]` : ''}`;
}

function maskPreview(preview: Awaited<ReturnType<typeof previewImport>>) {
  return { ...preview, candidates: preview.candidates.map((c) => ({ ...c, transport: maskTransport(c.transport) })) };
}

function pairs(items: string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf('}=');
    if (!item.startsWith('${') || at === -1) throw new CodedError('invalid-input', `--set takes \${name}=VALUE, got "${item}".`);
    result[item.slice(0, at + 1)] = item.slice(at + 2);
  }
  return result;
}
