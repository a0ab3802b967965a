// Reads one host config file into its server entries. A file that does not parse is an error for
// the whole file (with line and column); an entry that does not fit is skipped with a reason.
import path from 'node:path';
import type { z } from 'zod';
import { CodedError } from '../../shared/result.js';
import {
  claudeJsonFileSchema,
  hostEntrySchema,
  mcpServersFileSchema,
  vscodeFileSchema,
  type HostEntry,
  type VscodeInput,
} from './host-config-schema.js';
import type { HostKind } from './host-kind.js';
import { parseJsonc } from './jsonc.js';

export interface RawEntry {
  name: string;
  /** For ~/.claude.json project (local-scope) servers: the project folder. */
  project?: string | undefined;
  entry: HostEntry;
}

export interface HostConfig {
  entries: RawEntry[];
  inputs: VscodeInput[];
  skipped: { name: string; reason: string }[];
}

export function readHostConfig(host: HostKind, text: string, file: string): HostConfig {
  const value = parseJsonc(text, file);
  const result: HostConfig = { entries: [], inputs: [], skipped: [] };
  const collect = (servers: Record<string, unknown> | undefined, project?: string) => {
    for (const [name, raw] of Object.entries(servers ?? {})) {
      const parsed = hostEntrySchema.safeParse(raw);
      if (parsed.success) result.entries.push({ name, project, entry: parsed.data });
      else result.skipped.push({ name, reason: describe(parsed.error) });
    }
  };
  if (host === 'vscode') {
    const config = parseFile(vscodeFileSchema, value, file);
    collect(config.servers);
    result.inputs = config.inputs ?? [];
  } else if (host === 'claude-code' && path.basename(file) === '.claude.json') {
    const config = parseFile(claudeJsonFileSchema, value, file);
    collect(config.mcpServers);
    for (const [project, settings] of Object.entries(config.projects ?? {})) collect(settings.mcpServers, project);
  } else {
    collect(parseFile(mcpServersFileSchema, value, file).mcpServers);
  }
  return result;
}

function parseFile<S extends z.ZodType>(schema: S, value: unknown, file: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new CodedError('invalid-input', `${file} does not look like an MCP config: ${describe(parsed.error)}`);
  return parsed.data;
}

function describe(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ');
}
