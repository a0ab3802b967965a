// Import, step one: read the hosts' configs and show what would be imported, with every variable
// left visible and every duplicate named. Nothing is written here.
import fs from 'node:fs/promises';
import type { Registry, ServerId, TransportConfig } from '../../shared/domain.js';
import { toHostError } from '../../shared/result.js';
import type { ConfigSource } from './config-locations.js';
import { convertEntry, serverIdentity } from './entry-transport.js';
import type { VscodeInput } from './host-config-schema.js';
import type { ImportCandidateView } from '../../shared/import-types.js';
import type { HostKind } from './host-kind.js';
import { proxiedServerOf } from './proxy-launcher.js';
import { readHostConfig } from './read-host-config.js';

/**
 * What the UI sees of a candidate (shared/import-types.ts), before masking: here the transport is as
 * written in the host's file, secrets included, and the inputs are VS Code's own. Whether it is
 * importable is decided when the view is made (import-commands.ts).
 */
export interface ImportCandidate extends Omit<ImportCandidateView, 'inputs' | 'importable' | 'argumentFolders'> {
  /** As written in the host's file, variables included. Carries secrets: mask before a UI sees it. */
  transport: TransportConfig;
  /** The VS Code inputs those variables refer to (descriptions to show when asking for values). */
  inputs: VscodeInput[];
}

export interface ImportPreview {
  candidates: ImportCandidate[];
  /** Entries that could not become a server, with the reason. */
  skipped: { source: string; name: string; reason: string }[];
  /** Files that could not be read or parsed. */
  errors: { source: string; message: string }[];
}

export async function previewImport(
  sources: readonly ConfigSource[],
  registry: Registry,
  readFile: (file: string) => Promise<string> = (file) => fs.readFile(file, 'utf8'),
): Promise<ImportPreview> {
  const preview: ImportPreview = { candidates: [], skipped: [], errors: [] };
  const known = new Map<string, ServerId>(registry.servers.map((server) => [serverIdentity(server.transport), server.id]));
  const seen = new Map<string, string>();
  const names = new Set(registry.servers.map((server) => server.name));
  for (const source of sources) {
    let config;
    try {
      config = readHostConfig(source.host, await readFile(source.path), source.path);
    } catch (error) {
      preview.errors.push({ source: source.path, message: toHostError(error).message });
      continue;
    }
    for (const skipped of config.skipped) preview.skipped.push({ source: source.path, ...skipped });
    for (const { name, project, entry } of config.entries) {
      const converted = convertEntry(entry);
      if ('error' in converted) {
        preview.skipped.push({ source: source.path, name, reason: converted.error });
        continue;
      }
      const { transport, variables, disabled, notes } = converted;
      const identity = serverIdentity(transport);
      const key = `${source.path}#${project ? `${project}#` : ''}${name}`;
      const duplicateOf = known.get(identity);
      const sameAs = seen.get(identity);
      const proxiedServer = transport.type === 'stdio' ? proxiedServerOf(transport.command, transport.args) : undefined;
      if (!sameAs) seen.set(identity, key);
      const taken = duplicateOf === undefined && sameAs === undefined && proxiedServer === undefined;
      preview.candidates.push({
        key,
        name: taken ? uniqueName(name, source.host, names) : name,
        originalName: name,
        host: source.host,
        source: source.path,
        project,
        transport,
        variables,
        inputs: config.inputs.filter((input) => variables.includes(`\${input:${input.id}}`)),
        duplicateOf,
        sameAs,
        proxiedServer,
        disabledInHost: disabled,
        notes,
      });
    }
  }
  return preview;
}

/** The candidates an "import all" takes: new servers that are not ours and not repeats. */
export function importable(preview: ImportPreview): ImportCandidate[] {
  return preview.candidates.filter((c) => c.duplicateOf === undefined && c.sameAs === undefined && c.proxiedServer === undefined);
}

function uniqueName(name: string, host: HostKind, taken: Set<string>): string {
  let candidate = taken.has(name) ? `${name} (${host})` : name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name} (${host} ${n})`;
  taken.add(candidate);
  return candidate;
}
