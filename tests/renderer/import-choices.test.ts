// The rules behind the import and "use with" dialogs: what is asked of the host, and what is not.
import { describe, expect, it } from 'vitest';
import type { ImportCandidateView, ImportPreviewView } from '../../shared/import-types.js';
import { applyInput, initialChoices, nameProblem, previewInput, variableFields, type ImportChoices } from '../../renderer/src/components/import-choices.js';
import { guessHost, HOST_KINDS } from '../../renderer/src/components/import-hosts.js';
import { useWithInput, type UseWithForm } from '../../renderer/src/components/use-with-choices.js';

function candidate(patch: Partial<ImportCandidateView> & { key: string }): ImportCandidateView {
  return {
    name: patch.key,
    originalName: patch.key,
    host: 'vscode',
    source: '/p/.vscode/mcp.json',
    transport: { type: 'stdio', command: 'node', args: [], env: {} },
    variables: [],
    inputs: [],
    disabledInHost: false,
    importable: true,
    argumentFolders: [],
    notes: [],
    ...patch,
  };
}

const preview: ImportPreviewView = {
  previewId: 'p1',
  sources: [],
  skipped: [],
  candidates: [
    candidate({
      key: 'a',
      variables: ['${input:token}', '${env:HOME}', '${workspaceFolder}', '${API_KEY:-none}'],
      inputs: [
        { id: 'token', password: true, description: 'Token' },
        { id: 'unused', password: false, default: 'x' },
      ],
    }),
    candidate({ key: 'b', variables: ['${input:dir}'], inputs: [{ id: 'dir', password: false, default: '/data' }] }),
    candidate({ key: 'c', importable: false, duplicateOf: 's1' }),
  ],
};

describe('import: where to look', () => {
  const where = { hosts: [...HOST_KINDS], workspaces: '', file: '', fileHost: '' as const };

  it('asks for the usual places by default, and for exactly a file when no host is ticked', () => {
    expect(previewInput(where).input).toEqual({ from: [...HOST_KINDS] });
    expect(previewInput({ ...where, hosts: [], file: ' /x/mcp.json ', fileHost: 'cursor' }).input).toEqual({ files: [{ path: '/x/mcp.json', host: 'cursor' }] });
    expect(previewInput({ ...where, workspaces: '/a\n\n  C:\\b  \n' }).input).toEqual({ from: [...HOST_KINDS], workspaces: ['/a', 'C:\\b'] });
  });

  it('names the field that is wrong and asks nothing', () => {
    expect(previewInput({ ...where, workspaces: 'rel/dir' })).toEqual({ problems: { workspaces: 'import.pathNotAbsolute' } });
    expect(previewInput({ ...where, file: '/x/config.json' }).problems).toEqual({ fileHost: 'import.fileHostRequired' });
    expect(previewInput({ ...where, hosts: [] }).problems).toEqual({ hosts: 'import.nothingToLook' });
    expect(previewInput({ ...where, hosts: [], workspaces: '/a', file: '/f.json', fileHost: 'vscode' }).problems).toEqual({ hosts: 'import.workspacesNeedHost' });
  });

  it('guesses the host from the file name like the host side does', () => {
    expect(guessHost('/Users/me/Library/Application Support/Claude/claude_desktop_config.json')).toBe('claude-desktop');
    expect(guessHost('C:\\p\\.vscode\\mcp.json')).toBe('vscode');
    expect(guessHost('/p/.cursor/mcp.json')).toBe('cursor');
    expect(guessHost('/p/.mcp.json')).toBe('claude-code');
    expect(guessHost('/p/servers.json')).toBeUndefined();
  });
});

describe('import: choices', () => {
  it('ticks the importable ones and pre-fills only visible input defaults', () => {
    const choices = initialChoices(preview);
    expect([...choices.checked]).toEqual(['a', 'b']);
    expect(choices.values).toEqual({ '${input:unused}': 'x', '${input:dir}': '/data' });
  });

  it('gives every variable a field, passwords hidden, env variables named', () => {
    expect(variableFields(preview.candidates[0]!)).toEqual([
      { variable: '${input:token}', kind: 'input', id: 'token', description: 'Token', password: true },
      { variable: '${env:HOME}', kind: 'env', id: 'HOME', password: false },
      { variable: '${workspaceFolder}', kind: 'other', id: '${workspaceFolder}', password: false },
      { variable: '${API_KEY:-none}', kind: 'env', id: 'API_KEY', password: false },
    ]);
  });

  it('sends only checked importable keys, changed names and filled values of those', () => {
    const choices: ImportChoices = {
      checked: new Set(['a', 'c']),
      names: { a: ' renamed ', b: 'b', c: 'c' },
      values: { '${input:token}': 's3cret', '${env:HOME}': '', '${input:dir}': '/data' },
      start: false,
    };
    expect(applyInput(preview, choices)).toEqual({ previewId: 'p1', keys: ['a'], names: { a: 'renamed' }, values: { '${input:token}': 's3cret' }, start: false });
    expect(applyInput(preview, { ...choices, start: true })?.start).toBe(true);
    expect(applyInput(preview, { ...choices, checked: new Set(['c']) })).toBeUndefined();
  });

  it('flags empty and repeated names among the checked ones only', () => {
    const choices: ImportChoices = { checked: new Set(['a', 'b']), names: { a: 'same', b: ' same' }, values: {}, start: false };
    expect(nameProblem(preview, choices, 'a')).toBe('import.nameRepeated');
    expect(nameProblem(preview, { ...choices, checked: new Set(['a']) }, 'a')).toBeUndefined();
    expect(nameProblem(preview, { ...choices, names: { a: '  ' } }, 'a')).toBe('import.nameRequired');
  });
});

describe('use with: the request', () => {
  const form: UseWithForm = { host: 'cursor', serverIds: ['s1'], target: 'user', workspace: '', file: '', project: '', launcher: 'node' };

  it('writes the user config by default, a workspace or a file when chosen', () => {
    expect(useWithInput(form).input).toEqual({ host: 'cursor', serverIds: ['s1'], launcher: 'node' });
    expect(useWithInput({ ...form, target: 'workspace', workspace: ' /p ' }).input).toMatchObject({ workspace: '/p' });
    expect(useWithInput({ ...form, target: 'file', file: '/x.json', launcher: 'path' }).input).toMatchObject({ file: '/x.json', launcher: 'path' });
  });

  it('passes a project only for Claude Code outside a workspace', () => {
    expect(useWithInput({ ...form, host: 'claude-code', project: '/work/app' }).input).toMatchObject({ project: '/work/app' });
    expect(useWithInput({ ...form, project: '/work/app' }).input).not.toHaveProperty('project');
    expect(useWithInput({ ...form, host: 'claude-code', target: 'workspace', workspace: '/w', project: '/work/app' }).input).not.toHaveProperty('project');
  });

  it('names what is missing instead of asking the host', () => {
    expect(useWithInput({ ...form, serverIds: [] }).problems).toEqual({ servers: 'useWith.pickServer' });
    expect(useWithInput({ ...form, target: 'file' }).problems).toEqual({ file: 'useWith.fileRequired' });
    expect(useWithInput({ ...form, target: 'workspace', workspace: 'rel' }).problems).toEqual({ workspace: 'import.pathNotAbsolute' });
  });
});
