// The add/edit server form as plain data: built from a ServerView, validated field by field, and
// turned into the contract's input. Kept free of React so it can be unit-tested on its own.
import type { ServerView, TransportConfig } from '../../../shared/domain.js';
import type { ImportCandidateView } from '../../../shared/import-types.js';
import { SECRET_MASK } from '../../../shared/secrets.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { looksLikeCommandLine, splitCommandLine, type SplitCommand } from './command-line.js';
import { newPair, pairsFromRecord, pairsProblem, pairsToRecord, type SecretPair } from './secret-pairs-editor.js';

export type TransportKind = 'stdio' | 'http' | 'sse';

export interface ServerForm {
  name: string;
  kind: TransportKind;
  command: string;
  /** One argument per line: no quoting rules to learn or get wrong. */
  args: string;
  cwd: string;
  env: SecretPair[];
  url: string;
  headers: SecretPair[];
  enabled: boolean;
  sharing: boolean;
}

export type FormField = 'name' | 'command' | 'url' | 'env' | 'headers';
export type FormProblems = Partial<Record<FormField, MessageKey>>;

export function formFromServer(server: ServerView | undefined): ServerForm {
  const transport = server?.transport;
  return {
    name: server?.name ?? '',
    kind: transport?.type ?? 'stdio',
    command: transport?.type === 'stdio' ? transport.command : '',
    args: transport?.type === 'stdio' ? transport.args.join('\n') : '',
    cwd: transport?.type === 'stdio' ? (transport.cwd ?? '') : '',
    env: transport?.type === 'stdio' ? pairsFromRecord(transport.env) : [],
    url: transport && transport.type !== 'stdio' ? transport.url : '',
    headers: transport && transport.type !== 'stdio' ? pairsFromRecord(transport.headers) : [],
    enabled: server?.enabled ?? true,
    sharing: server?.sharing ?? true,
  };
}

/**
 * `savedCommand`: the server's command as saved. It is taken as it is even where it has spaces (an
 * imported `C:\\Program Files\\…`); a command typed here that reads as a whole command line is
 * refused until it is split, because saved unsplit it names no program and the server never starts.
 */
export function validateForm(form: ServerForm, savedCommand?: string): FormProblems {
  const problems: FormProblems = {};
  if (!form.name.trim()) problems.name = 'form.nameRequired';
  if (form.kind === 'stdio') {
    if (!form.command.trim()) problems.command = 'form.commandRequired';
    else if (form.command.trim() !== savedCommand && looksLikeCommandLine(form.command)) problems.command = 'form.commandUnsplit';
    const env = pairsProblem(form.env);
    if (env) problems.env = env;
  } else {
    if (!/^https?:\/\//i.test(form.url.trim()) || !URL.canParse(form.url.trim())) problems.url = 'form.urlInvalid';
    const headers = pairsProblem(form.headers);
    if (headers) problems.headers = headers;
  }
  return problems;
}

export function formTransport(form: ServerForm): TransportConfig {
  if (form.kind === 'stdio') {
    const args = form.args.split(/\r?\n/).filter((line) => line.trim() !== '');
    const cwd = form.cwd.trim();
    return { type: 'stdio', command: programOf(form.command), args, env: pairsToRecord(form.env), ...(cwd ? { cwd } : {}) };
  }
  return { type: form.kind, url: form.url.trim(), headers: pairsToRecord(form.headers) };
}

/** A program path quoted because it holds spaces (`"/Apps/My Server/run"`) is saved without its quotes. */
function programOf(text: string): string {
  const trimmed = text.trim();
  if (!/^(["']).*\1$/s.test(trimmed)) return trimmed;
  const split = splitCommandLine(trimmed);
  return split.ok && split.value.args.length === 0 && split.value.env.length === 0 ? split.value.command : trimmed;
}

/** A split command line in the form: command and arguments replaced, its variables added (or updated by name). */
export function withCommandLine(form: ServerForm, split: SplitCommand): ServerForm {
  const env = [...form.env];
  for (const [key, value] of split.env) {
    const index = env.findIndex((pair) => pair.key.trim() === key);
    if (index >= 0) env[index] = { ...env[index]!, value, kept: false };
    else env.push(newPair(key, value));
  }
  return { ...form, kind: 'stdio', command: split.command, args: split.args.join('\n'), env };
}

/**
 * A pasted snippet's one server as a filled-in form, when nothing of it is a secret the host holds
 * (env and header values come back masked: those go through import instead, which keeps them).
 */
export function formFromCandidate(form: ServerForm, candidate: ImportCandidateView): ServerForm | undefined {
  const { transport } = candidate;
  const values = Object.values(transport.type === 'stdio' ? transport.env : transport.headers);
  if (values.some((value) => value === SECRET_MASK)) return undefined;
  const filled = formFromServer(undefined);
  return {
    ...filled,
    name: form.name.trim() || candidate.name,
    kind: transport.type,
    ...(transport.type === 'stdio'
      ? { command: transport.command, args: transport.args.join('\n'), cwd: transport.cwd ?? '', env: pairsFromRecord(transport.env) }
      : { url: transport.url, headers: pairsFromRecord(transport.headers) }),
    enabled: form.enabled,
    sharing: form.sharing,
  };
}
