// The add/edit server form: secrets stay masked end to end, and each field says what is wrong.
import { describe, expect, it } from 'vitest';
import type { ServerView } from '../../shared/domain.js';
import { SECRET_MASK } from '../../shared/secrets.js';
import type { ImportCandidateView } from '../../shared/import-types.js';
import { splitCommandLine } from '../../renderer/src/components/command-line.js';
import { formFromCandidate, formFromServer, formTransport, validateForm, withCommandLine } from '../../renderer/src/components/server-form-state.js';
import { transportSummary } from '../../renderer/src/components/transport-summary.js';

const server = (transport: ServerView['transport']): ServerView => ({
  id: 's1',
  name: 'fs',
  transport,
  enabled: true,
  sharing: true,
  sandbox: true,
  network: true,
  askForFolders: true,
  addedAt: '2026-01-01T00:00:00.000Z',
  status: { state: 'connected', rootsRequestCount: 0, listChangedCount: 0 },
  grantedRootIds: [],
  readOnlyRootIds: [],
  argumentFolders: [],
  mappedFolders: [],
  effectiveRootIds: [],
});

describe('server form state', () => {
  it('keeps a masked env value as the mask unless it is retyped', () => {
    const form = formFromServer(server({ type: 'stdio', command: 'npx', args: ['-y', 'pkg'], env: { TOKEN: SECRET_MASK, PLAIN: SECRET_MASK } }));
    expect(form.env.map((pair) => [pair.key, pair.value, pair.kept])).toEqual([
      ['TOKEN', '', true],
      ['PLAIN', '', true],
    ]);
    expect(form.args).toBe('-y\npkg');
    const edited = { ...form, env: form.env.map((pair) => (pair.key === 'PLAIN' ? { ...pair, value: 'new', kept: false } : pair)) };
    expect(formTransport(edited)).toEqual({ type: 'stdio', command: 'npx', args: ['-y', 'pkg'], env: { TOKEN: SECRET_MASK, PLAIN: 'new' } });
  });

  it('splits arguments one per line, keeps spaces inside one, drops blank lines', () => {
    const form = { ...formFromServer(undefined), name: 'x', command: ' node ', args: 'server.js\n\n/path with spaces/dir\n', cwd: '' };
    expect(formTransport(form)).toEqual({ type: 'stdio', command: 'node', args: ['server.js', '/path with spaces/dir'], env: {} });
  });

  it('reports each problem on its field', () => {
    const empty = formFromServer(undefined);
    expect(validateForm(empty)).toEqual({ name: 'form.nameRequired', command: 'form.commandRequired' });
    expect(validateForm({ ...empty, name: 'h', kind: 'http', url: 'ftp://x' })).toEqual({ url: 'form.urlInvalid' });
    const duplicate = formFromServer(server({ type: 'http', url: 'https://x.test/mcp', headers: { A: SECRET_MASK } }));
    duplicate.headers.push({ ...duplicate.headers[0]!, id: 999 });
    expect(validateForm(duplicate)).toEqual({ headers: 'form.pairDuplicate' });
  });

  // Issue 23 item 9: typed, not pasted, it used to be saved unsplit and the server never started.
  it('refuses a typed whole command line until it is split, but keeps a saved command as it is', () => {
    const typed = { ...formFromServer(undefined), name: 'fs', command: 'npx -y @modelcontextprotocol/server-filesystem /home/me/code' };
    expect(validateForm(typed)).toEqual({ command: 'form.commandUnsplit' });
    expect(validateForm({ ...typed, command: 'GITHUB_TOKEN=x npx server' })).toEqual({ command: 'form.commandUnsplit' });
    const split = splitCommandLine(typed.command);
    expect(split.ok && validateForm(withCommandLine(typed, split.value))).toEqual({});
    // Imported with a space in its program path: editing its other fields does not refuse it.
    const imported = formFromServer(server({ type: 'stdio', command: 'C:\\Program Files\\nodejs\\node.exe', args: ['server.js'], env: {} }));
    expect(validateForm(imported, 'C:\\Program Files\\nodejs\\node.exe')).toEqual({});
    // A program path with spaces, quoted, is one word: taken, and saved without its quotes.
    const quoted = { ...typed, command: '"/opt/My Server/bin/run"' };
    expect(validateForm(quoted)).toEqual({});
    expect(formTransport(quoted)).toMatchObject({ command: '/opt/My Server/bin/run' });
  });

  it('summarizes a transport by package name rather than a deep path', () => {
    expect(transportSummary({ type: 'stdio', command: '/usr/bin/node', args: ['/x/node_modules/@scope/pkg/dist/index.js', 'stdio'], env: {} })).toBe(
      'node @scope/pkg stdio',
    );
    expect(transportSummary({ type: 'http', url: 'https://x.test/mcp', headers: {} })).toBe('https://x.test/mcp');
  });
});

describe('pasted into the form', () => {
  it('a split command line fills command, one argument per line, and its variables', () => {
    const split = splitCommandLine('GITHUB_TOKEN=ghp_1 npx -y "@modelcontextprotocol/server-github"');
    if (!split.ok) throw new Error('not split');
    const before = formFromServer(server({ type: 'stdio', command: '', args: [], env: { GITHUB_TOKEN: SECRET_MASK, OTHER: SECRET_MASK } }));
    const form = withCommandLine(before, split.value);
    expect(formTransport(form)).toEqual({ type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_1', OTHER: SECRET_MASK } });
  });

  const candidate = (transport: ImportCandidateView['transport']): ImportCandidateView => ({
    key: 'pasted text#fetch',
    name: 'fetch',
    originalName: 'fetch',
    host: 'claude-desktop',
    source: 'pasted text',
    transport,
    variables: [],
    inputs: [],
    disabledInHost: false,
    importable: true,
    notes: [],
    argumentFolders: [],
  });

  it('one pasted server without secrets fills the form, keeping a typed name', () => {
    const form = formFromCandidate(formFromServer(undefined), candidate({ type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], env: {} }));
    expect(form && { name: form.name, transport: formTransport(form) }).toEqual({ name: 'fetch', transport: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], env: {} } });
    const named = formFromCandidate({ ...formFromServer(undefined), name: 'web fetch' }, candidate({ type: 'http', url: 'http://127.0.0.1:3001/mcp', headers: {} }));
    expect(named && { name: named.name, transport: formTransport(named) }).toEqual({ name: 'web fetch', transport: { type: 'http', url: 'http://127.0.0.1:3001/mcp', headers: {} } });
  });

  it('one with a secret does not: the host holds the value, so it goes through import', () => {
    expect(formFromCandidate(formFromServer(undefined), candidate({ type: 'stdio', command: 'npx', args: [], env: { TOKEN: SECRET_MASK } }))).toBeUndefined();
  });
});
