// What the person chose in the import dialog, and the contract inputs built from it. Pure, so the
// rules (which paths are asked for, which names clash, which values are sent) are tested alone.
import type { ChannelInput } from '../../../shared/contract.js';
import type { ImportCandidateView, ImportPreviewView } from '../../../shared/import-types.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { looksAbsolute, type HostKind } from './import-hosts.js';

export interface ImportWhere {
  /** Look in these hosts' usual places (and in the workspace folders for them). */
  hosts: readonly HostKind[];
  /** Project folders, one per line. */
  workspaces: string;
  /** One config file named by the person, read as `fileHost`'s. */
  file: string;
  fileHost: HostKind | '';
}

export type WhereProblems = Partial<Record<'hosts' | 'workspaces' | 'file' | 'fileHost', MessageKey>>;

export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

export function previewInput(where: ImportWhere): { input?: ChannelInput<'import.preview'>; problems: WhereProblems } {
  const problems: WhereProblems = {};
  const workspaces = linesOf(where.workspaces);
  const file = where.file.trim();
  if (workspaces.some((workspace) => !looksAbsolute(workspace))) problems.workspaces = 'import.pathNotAbsolute';
  if (file !== '' && !looksAbsolute(file)) problems.file = 'import.pathNotAbsolute';
  if (file !== '' && where.fileHost === '') problems.fileHost = 'import.fileHostRequired';
  if (where.hosts.length === 0 && file === '') problems.hosts = 'import.nothingToLook';
  else if (where.hosts.length === 0 && workspaces.length > 0) problems.hosts = 'import.workspacesNeedHost';
  if (Object.keys(problems).length > 0) return { problems };
  // No host ticked means "exactly this file": the contract then discovers nothing.
  const input: ChannelInput<'import.preview'> = {
    ...(where.hosts.length > 0 ? { from: [...where.hosts] } : {}),
    ...(workspaces.length > 0 ? { workspaces } : {}),
    ...(file !== '' && where.fileHost !== '' ? { files: [{ path: file, host: where.fileHost }] } : {}),
  };
  return { input, problems };
}

export interface ImportChoices {
  checked: ReadonlySet<string>;
  /** Registry names by candidate key, as typed. */
  names: Readonly<Record<string, string>>;
  /** Values by variable as written ("${input:token}"); shared by every candidate that uses it. */
  values: Readonly<Record<string, string>>;
  /** Start them once imported. Off by default: an imported entry may carry keys the person has not looked at. */
  start: boolean;
}

export function initialChoices(preview: ImportPreviewView): ImportChoices {
  const values: Record<string, string> = {};
  for (const candidate of preview.candidates) {
    for (const input of candidate.inputs) if (input.default !== undefined) values[`\${input:${input.id}}`] = input.default;
  }
  return {
    checked: new Set(preview.candidates.filter((candidate) => candidate.importable).map((candidate) => candidate.key)),
    names: Object.fromEntries(preview.candidates.map((candidate) => [candidate.key, candidate.name])),
    values,
    start: false,
  };
}

export interface VariableField {
  /** As written in the config, e.g. "${input:token}". */
  variable: string;
  kind: 'input' | 'env' | 'other';
  /** The input id or the environment variable's name; the variable itself otherwise. */
  id: string;
  description?: string | undefined;
  password: boolean;
}

/** One field per variable of the candidate, in the order the config has them. */
export function variableFields(candidate: ImportCandidateView): VariableField[] {
  return candidate.variables.map((variable) => {
    const inner = variable.slice(2, -1);
    if (inner.startsWith('input:')) {
      const id = inner.slice('input:'.length);
      const input = candidate.inputs.find((candidateInput) => candidateInput.id === id);
      return { variable, kind: 'input', id, description: input?.description, password: input?.password ?? false };
    }
    if (inner.startsWith('env:')) return { variable, kind: 'env', id: inner.slice('env:'.length), password: false };
    // Claude Code spells environment variables ${NAME} or ${NAME:-default}.
    const claudeCode = /^([A-Z_][A-Z0-9_]*)(:-.*)?$/.exec(inner);
    if (claudeCode?.[1]) return { variable, kind: 'env', id: claudeCode[1], password: false };
    return { variable, kind: 'other', id: variable, password: false };
  });
}

/** Why a checked candidate's name cannot be used: empty, or the same as another checked one's. */
export function nameProblem(preview: ImportPreviewView, choices: ImportChoices, key: string): MessageKey | undefined {
  if (!choices.checked.has(key)) return undefined;
  const name = (choices.names[key] ?? '').trim();
  if (name === '') return 'import.nameRequired';
  const clash = preview.candidates.some(
    (other) => other.key !== key && choices.checked.has(other.key) && (choices.names[other.key] ?? '').trim() === name,
  );
  return clash ? 'import.nameRepeated' : undefined;
}

export function hasNameProblems(preview: ImportPreviewView, choices: ImportChoices): boolean {
  return preview.candidates.some((candidate) => nameProblem(preview, choices, candidate.key) !== undefined);
}

/** Only the checked keys; only names that differ from the proposal; only values that were filled in. */
export function applyInput(preview: ImportPreviewView, choices: ImportChoices): ChannelInput<'import.apply'> | undefined {
  const chosen = preview.candidates.filter((candidate) => candidate.importable && choices.checked.has(candidate.key));
  if (chosen.length === 0) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  for (const candidate of chosen) {
    const name = (choices.names[candidate.key] ?? candidate.name).trim();
    if (name !== candidate.name) names[candidate.key] = name;
    for (const variable of candidate.variables) {
      const value = choices.values[variable];
      if (value !== undefined && value !== '') values[variable] = value;
    }
  }
  return {
    previewId: preview.previewId,
    keys: chosen.map((candidate) => candidate.key),
    ...(Object.keys(names).length > 0 ? { names } : {}),
    ...(Object.keys(values).length > 0 ? { values } : {}),
    start: choices.start,
  };
}
