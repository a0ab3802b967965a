// What the person chose in the "use with" dialog, and the contract input built from it. Pure.
import type { ChannelInput } from '../../../shared/contract.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { hasWorkspaceConfig, looksAbsolute, type HostKind } from './import-hosts.js';

export type UseWithTarget = 'user' | 'workspace' | 'file';

export interface UseWithForm {
  host: HostKind;
  /** In the registry's order. */
  serverIds: readonly string[];
  target: UseWithTarget;
  workspace: string;
  file: string;
  /** Claude Code's ~/.claude.json only: that project's (local-scope) servers. */
  project: string;
  launcher: 'node' | 'path';
  /** Per server id, where the host has a different server of its name: add ours beside it, or replace it. */
  clashes?: Readonly<Record<string, 'replace' | 'add'>>;
}

export type UseWithProblems = Partial<Record<'servers' | 'workspace' | 'file' | 'project', MessageKey>>;

/** Claude Code keeps per-project servers inside ~/.claude.json; only that file takes a project. */
export function takesProject(form: Pick<UseWithForm, 'host' | 'target'>): boolean {
  return form.host === 'claude-code' && form.target !== 'workspace';
}

export function useWithInput(form: UseWithForm): { input?: ChannelInput<'useWith.preview'>; problems: UseWithProblems } {
  const problems: UseWithProblems = {};
  const workspace = form.workspace.trim();
  const file = form.file.trim();
  const project = takesProject(form) ? form.project.trim() : '';
  if (form.serverIds.length === 0) problems.servers = 'useWith.pickServer';
  if (form.target === 'workspace' && !looksAbsolute(workspace)) problems.workspace = workspace === '' ? 'useWith.workspaceRequired' : 'import.pathNotAbsolute';
  if (form.target === 'file' && !looksAbsolute(file)) problems.file = file === '' ? 'useWith.fileRequired' : 'import.pathNotAbsolute';
  if (project !== '' && !looksAbsolute(project)) problems.project = 'import.pathNotAbsolute';
  if (Object.keys(problems).length > 0) return { problems };
  return {
    input: {
      host: form.host,
      serverIds: [...form.serverIds],
      launcher: form.launcher,
      ...(form.target === 'workspace' && hasWorkspaceConfig(form.host) ? { workspace } : {}),
      ...(form.target === 'file' ? { file } : {}),
      // Kept as typed: it is a key in ~/.claude.json and must match Claude Code's own spelling.
      ...(project !== '' ? { project: form.project.trim() } : {}),
      ...(form.clashes && Object.keys(form.clashes).length > 0 ? { clashes: { ...form.clashes } } : {}),
    },
    problems,
  };
}
