// The add/edit server form as plain data: built from a ServerView, validated field by field, and
// turned into the contract's input. Kept free of React so it can be unit-tested on its own.
import type { ServerView, TransportConfig } from '../../../shared/domain.js';
import type { MessageKey } from '../i18n/messages.js';
import { pairsFromRecord, pairsProblem, pairsToRecord, type SecretPair } from './secret-pairs-editor.js';

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

export function validateForm(form: ServerForm): FormProblems {
  const problems: FormProblems = {};
  if (!form.name.trim()) problems.name = 'form.nameRequired';
  if (form.kind === 'stdio') {
    if (!form.command.trim()) problems.command = 'form.commandRequired';
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
    return { type: 'stdio', command: form.command.trim(), args, env: pairsToRecord(form.env), ...(cwd ? { cwd } : {}) };
  }
  return { type: form.kind, url: form.url.trim(), headers: pairsToRecord(form.headers) };
}
