// What a compromised page could do with a legitimate channel, confirmed by the person in a native
// dialog first: run a program the registry does not hold yet, have "Use with…" write a file that
// is not one of the hosts' configs, or leave more protected names writable in a grant. Everything
// else passes without a dialog.
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import type { Registry, ServerRecord, StdioTransportConfig } from '../../../shared/domain.js';
import { SECRET_MASK } from '../../../shared/secrets.js';
import { emptyRegistry } from '../../../shared/registry-schema.js';
import { confirmationDialog, confirmRiskyCalls, isKnownHostConfig, riskOf } from '../../../electron/main/confirm-risky-calls.js';
import { electronMock, resetElectronMock } from './electron-mock.js';

const npxFilesystem: StdioTransportConfig = {
  type: 'stdio',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem'],
  env: { GITHUB_TOKEN: 'secret-value' },
};

function registryWith(...transports: StdioTransportConfig[]): Registry {
  const registry = emptyRegistry() as Registry;
  registry.servers = transports.map(
    (transport, index): ServerRecord => ({
      id: `s${index}`,
      name: `server-${index}`,
      transport,
      enabled: true,
      sharing: true,
      sandbox: true,
      network: true,
      askForFolders: true,
      addedAt: '2026-11-01T00:00:00.000Z',
    }),
  );
  return registry;
}

beforeEach(() => resetElectronMock());

describe('a stdio launch line', () => {
  const registry = registryWith(npxFilesystem);

  it('already in the registry needs no confirmation (another server with the same launch)', () => {
    expect(riskOf('servers.add', { name: 'copy', transport: npxFilesystem }, registry)).toBeUndefined();
  });

  it.each([
    ['a new command', { ...npxFilesystem, command: '/tmp/payload' }],
    ['new arguments', { ...npxFilesystem, args: ['-y', 'evil-package'] }],
    ['another folder', { ...npxFilesystem, cwd: '/tmp' }],
    ['an added variable (NODE_OPTIONS changes what runs)', { ...npxFilesystem, env: { ...npxFilesystem.env, NODE_OPTIONS: '--require /tmp/x.js' } }],
  ])('with %s is confirmed before servers.add runs', (_what, transport) => {
    expect(riskOf('servers.add', { name: 'x', transport }, registry)).toEqual({ kind: 'new-command', server: 'x', transport });
  });

  it('on servers.update: confirmed when it changes what runs, not when the page sends the masked secret back', () => {
    const unchanged = { serverId: 's0', patch: { name: 'renamed', transport: { ...npxFilesystem, env: { GITHUB_TOKEN: SECRET_MASK } } } };
    expect(riskOf('servers.update', unchanged, registry)).toBeUndefined();
    expect(riskOf('servers.update', { serverId: 's0', patch: { enabled: false } }, registry)).toBeUndefined();
    const changed = { serverId: 's0', patch: { transport: { ...npxFilesystem, args: ['-y', 'other'], env: { GITHUB_TOKEN: SECRET_MASK } } } };
    expect(riskOf('servers.update', changed, registry)).toMatchObject({
      kind: 'new-command',
      server: 'server-0',
      transport: { args: ['-y', 'other'], env: { GITHUB_TOKEN: 'secret-value' } },
    });
  });

  it('is not asked for HTTP servers, invalid payloads (dispatch refuses those) or other channels', () => {
    expect(riskOf('servers.add', { name: 'h', transport: { type: 'http', url: 'https://x.example/mcp', headers: {} } }, registry)).toBeUndefined();
    expect(riskOf('servers.add', { name: 'x', transport: { type: 'stdio', command: '' } }, registry)).toBeUndefined();
    expect(riskOf('roots.add', { paths: ['/tmp'] }, registry)).toBeUndefined();
  });

  it('shows the full command line, the folder and the variable names, never their values', () => {
    const options = confirmationDialog({
      kind: 'new-command',
      server: 'x',
      transport: { type: 'stdio', command: '/usr/bin/node', args: ['/srv/my server.js', '--port', '1'], env: { TOKEN: 'hunter2' }, cwd: '/srv' },
    });
    expect(options).toMatchObject({ type: 'warning', buttons: ['Cancel', 'Allow'], defaultId: 0, cancelId: 0 });
    expect(options.detail).toContain("/usr/bin/node '/srv/my server.js' --port 1");
    expect(options.detail).toContain('In: /srv');
    expect(options.detail).toContain('TOKEN');
    expect(options.detail).not.toContain('hunter2');
  });
});

describe('"Use with…" writing a file', () => {
  const home = os.homedir();
  const registry = registryWith();

  it.each([
    ['claude-desktop', path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude', 'claude_desktop_config.json')],
    ['cursor', path.join(home, '.cursor', 'mcp.json')],
    ['claude-code', path.join(home, '.claude.json')],
    ['vscode', '/work/project/.vscode/mcp.json'],
    ['cursor', '/work/project/.cursor/mcp.json'],
    ['claude-code', '/work/project/.mcp.json'],
  ] as const)('to a %s config at its usual place (%s) needs no confirmation', (host, file) => {
    expect(isKnownHostConfig(host, file, 'linux')).toBe(true);
    expect(riskOf('useWith.apply', { host, serverIds: ['s'], file }, registry)).toBeUndefined();
  });

  it.each([
    ['claude-desktop', path.join(home, '.bashrc')],
    ['vscode', path.join(home, '.ssh', 'authorized_keys')],
    ['vscode', '/work/project/.cursor/mcp.json'],
    ['claude-code', '/etc/cron.d/mcp.json'],
  ] as const)('as %s to %s is confirmed first', (host, file) => {
    expect(riskOf('useWith.apply', { host, serverIds: ['s'], file }, registry)).toEqual({ kind: 'unknown-file', file, host });
  });

  it("needs no confirmation when the host chooses the file itself (no file given, or a workspace's)", () => {
    expect(riskOf('useWith.apply', { host: 'vscode', serverIds: ['s'] }, registry)).toBeUndefined();
    expect(riskOf('useWith.apply', { host: 'vscode', serverIds: ['s'], workspace: '/work/p' }, registry)).toBeUndefined();
    // A preview writes nothing.
    expect(riskOf('useWith.preview', { host: 'vscode', serverIds: ['s'], file: path.join(home, '.bashrc') }, registry)).toBeUndefined();
  });
});

describe('leaving protected names writable in a grant (grants.setWritable)', () => {
  function registryWithOptIn(mode: 'read-write' | 'read-only', optedIn: string[]): Registry {
    const registry = registryWith(npxFilesystem);
    registry.roots = [{ id: 'r0', path: '/work/project', canonicalPath: '/work/project', name: 'project', addedAt: '2026-11-01T00:00:00.000Z' }];
    registry.grants = { s0: { r0: mode } };
    registry.servers = registry.servers.map((server) => (optedIn.length > 0 ? { ...server, writableByChoice: { r0: optedIn } } : server));
    return registry;
  }
  const call = (names: string[]) => ({ serverId: 's0', rootId: 'r0', names });

  it('is confirmed when it adds names, and the risk names the server, the folder and only the added names', () => {
    expect(riskOf('grants.setWritable', call(['.vscode', '.git/hooks']), registryWithOptIn('read-write', []))).toEqual({
      kind: 'writable-names',
      server: 'server-0',
      folder: '/work/project',
      names: ['.vscode', '.git/hooks'],
      readOnly: false,
    });
    expect(riskOf('grants.setWritable', call(['.vscode', '.git/hooks']), registryWithOptIn('read-write', ['.vscode']))).toMatchObject({
      names: ['.git/hooks'],
    });
  });

  it('needs no confirmation when it only keeps or removes names (that narrows what the server may write)', () => {
    const registry = registryWithOptIn('read-write', ['.vscode', '.git/hooks']);
    expect(riskOf('grants.setWritable', call(['.git/hooks', '.vscode']), registry)).toBeUndefined();
    expect(riskOf('grants.setWritable', call(['.vscode']), registry)).toBeUndefined();
    expect(riskOf('grants.setWritable', call([]), registry)).toBeUndefined();
  });

  it('is confirmed on a read-only grant too (the names take effect once it is read-write) and says so', () => {
    const risk = riskOf('grants.setWritable', call(['.bashrc']), registryWithOptIn('read-only', []));
    expect(risk).toMatchObject({ kind: 'writable-names', names: ['.bashrc'], readOnly: true });
    expect(confirmationDialog(risk!).detail).toContain('read-only for this server now');
  });

  it('is confirmed even when the snapshot lacks the grant (one queued just before would exist when the edit runs)', () => {
    expect(riskOf('grants.setWritable', { serverId: 's9', rootId: 'r9', names: ['.git/hooks'] }, registryWith())).toEqual({
      kind: 'writable-names',
      server: 's9',
      folder: 'r9',
      names: ['.git/hooks'],
      readOnly: false,
    });
  });

  it('is not asked for names that are not protected ones (the edit refuses the whole call)', () => {
    expect(riskOf('grants.setWritable', call(['.git/hooks', 'src']), registryWithOptIn('read-write', []))).toBeUndefined();
    expect(riskOf('grants.setWritable', { serverId: 's0' }, registryWithOptIn('read-write', []))).toBeUndefined();
  });

  it('says which server, which folder and which names, and what it means, with Cancel as the default', () => {
    const options = confirmationDialog({ kind: 'writable-names', server: 'filesystem', folder: '/work/project', names: ['.git/hooks', '.vscode'], readOnly: false });
    expect(options).toMatchObject({ type: 'warning', buttons: ['Cancel', 'Leave writable'], defaultId: 0, cancelId: 0 });
    expect(options.message).toBe('Let "filesystem" change these protected paths in /work/project?');
    expect(options.detail).toContain('.git/hooks\n.vscode');
    expect(options.detail).toContain('Your tools run these files later');
    expect(options.detail).toContain('run its code as you');
    expect(options.detail).not.toContain('read-only');
  });

  it('stops the call when the person cancels, lets it through when they allow', async () => {
    const confirm = confirmRiskyCalls(() => registryWithOptIn('read-write', []), () => undefined);
    electronMock.dialog.showMessageBox.mockResolvedValueOnce({ response: 0, checkboxChecked: false });
    expect(await confirm('grants.setWritable', call(['.git/hooks']))).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: 'You did not allow leaving these paths writable; nothing was changed.' },
    });
    expect(electronMock.dialog.showMessageBox).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('"server-0"') }));
    electronMock.dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: false });
    expect(await confirm('grants.setWritable', call(['.git/hooks']))).toBeUndefined();
  });
});

describe('the confirmation in front of the handlers', () => {
  const registry = registryWith(npxFilesystem);
  const risky = { name: 'x', transport: { ...npxFilesystem, command: '/tmp/payload' } };

  it('lets a safe call through without a dialog', async () => {
    const confirm = confirmRiskyCalls(() => registry, () => undefined);
    expect(await confirm('servers.add', { name: 'copy', transport: npxFilesystem })).toBeUndefined();
    expect(electronMock.dialog.showMessageBox).not.toHaveBeenCalled();
  });

  it('stops the call with a typed error when the person cancels, lets it through when they allow', async () => {
    const confirm = confirmRiskyCalls(() => registry, () => undefined);
    electronMock.dialog.showMessageBox.mockResolvedValueOnce({ response: 0, checkboxChecked: false });
    expect(await confirm('servers.add', risky)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    electronMock.dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: false });
    expect(await confirm('servers.add', risky)).toBeUndefined();
  });

  it('refuses when no dialog can be shown: no yes, no call', async () => {
    const confirm = confirmRiskyCalls(() => registry, () => undefined, async () => {
      throw new Error('no display');
    });
    expect(await confirm('servers.add', risky)).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});
