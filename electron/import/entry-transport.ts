// A host's server entry -> our transport config. Variables (${input:token}, ${env:HOME},
// ${workspaceFolder}, Claude Code's ${VAR:-default}) are listed and kept verbatim: expanding them
// silently would import a secret or a path the person never saw.
import type { TransportConfig } from '../../shared/domain.js';
import type { HostEntry } from './host-config-schema.js';

export interface ConvertedEntry {
  transport: TransportConfig;
  variables: string[];
  /** The host has the entry switched off. */
  disabled: boolean;
  /** What did not carry over, in words for the preview. */
  notes: string[];
}

const VARIABLE = /\$\{[^}]+\}/g;
/** Our own argument-injection placeholder is not a host variable. */
const OURS = /^\$\{roots(?::[^}]*)?\}$/;

export function variablesIn(transport: TransportConfig): string[] {
  const texts =
    transport.type === 'stdio'
      ? [transport.command, ...transport.args, ...Object.values(transport.env), transport.cwd ?? '']
      : [transport.url, ...Object.values(transport.headers)];
  const found = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(VARIABLE)) if (!OURS.test(match[0])) found.add(match[0]);
  return [...found];
}

/** Replaces each given variable (keyed by its full text, e.g. "${input:token}") everywhere. */
export function substituteVariables(transport: TransportConfig, values: Readonly<Record<string, string>>): TransportConfig {
  const fill = (text: string) => text.replace(VARIABLE, (variable) => values[variable] ?? variable);
  const fillMap = (map: Record<string, string>) => Object.fromEntries(Object.entries(map).map(([key, value]) => [key, fill(value)]));
  if (transport.type === 'stdio') {
    return {
      ...transport,
      command: fill(transport.command),
      args: transport.args.map(fill),
      env: fillMap(transport.env),
      ...(transport.cwd !== undefined ? { cwd: fill(transport.cwd) } : {}),
    };
  }
  return { ...transport, url: fill(transport.url), headers: fillMap(transport.headers) };
}

export function convertEntry(entry: HostEntry): ConvertedEntry | { error: string } {
  const kind = (entry.type ?? entry.transport)?.toLowerCase().replace(/[^a-z]/g, '');
  const notes: string[] = [];
  const disabled = entry.disabled === true;
  if (entry.url !== undefined && kind !== 'stdio') {
    if (entry.command !== undefined) notes.push('Has both a url and a command: the url was taken.');
    const type = kind === 'sse' ? 'sse' : 'http';
    if (kind !== undefined && !['sse', 'http', 'streamablehttp', 'streamable'].includes(kind)) {
      notes.push(`Unknown transport "${entry.type ?? entry.transport}": treated as Streamable HTTP.`);
    }
    const headers = Object.fromEntries(Object.entries(entry.headers ?? {}).map(([key, value]) => [key, String(value)]));
    const transport: TransportConfig = { type, url: entry.url, headers };
    return { transport, variables: variablesIn(transport), disabled, notes };
  }
  if (entry.command === undefined || entry.command.trim() === '') {
    return { error: 'has neither a command nor a url' };
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry.env ?? {})) {
    if (value === null) notes.push(`env ${key} is unset by the host (null): left out.`);
    else env[key] = String(value);
  }
  if (entry.envFile !== undefined) notes.push(`envFile ${entry.envFile} is not read: add its variables by hand.`);
  const transport: TransportConfig = {
    type: 'stdio',
    command: entry.command,
    args: (entry.args ?? []).map(String),
    env,
    ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
  };
  return { transport, variables: variablesIn(transport), disabled, notes };
}

/** Two configs run the same server: same command and arguments, or the same URL. */
export function serverIdentity(transport: TransportConfig): string {
  if (transport.type === 'stdio') return JSON.stringify(['stdio', transport.command, ...transport.args]);
  let url = transport.url;
  try {
    url = new URL(transport.url).href;
  } catch {
    // A URL with unresolved variables: compare it as written.
  }
  return JSON.stringify(['url', url]);
}
