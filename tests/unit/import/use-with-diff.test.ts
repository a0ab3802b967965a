// The before/after of "use with": only the servers section, every secret masked, changes in context.
import { describe, expect, it } from 'vitest';
import { changes, serversDiff } from '../../../electron/import/use-with-diff.js';
import { SECRET_MASK } from '../../../shared/secrets.js';

const before = {
  globalShortcut: 'Ctrl+Space',
  mcpServers: {
    github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_secret_in_the_file', DEBUG: '${env:DEBUG}' } },
    filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me'] },
  },
};
const after = {
  ...before,
  mcpServers: { ...before.mcpServers, filesystem: { command: '/usr/bin/node', args: ['/opt/mcp-roots/bin/mcp-roots.js', 'proxy', 'filesystem'] } },
};

describe('serversDiff', () => {
  it('shows the changed entry as removed and added lines, with secrets masked', () => {
    const diff = serversDiff('claude-desktop', before, after);
    const text = diff.map((line) => `${line.kind[0]} ${line.text}`).join('\n');
    expect(text).not.toContain('ghp_secret_in_the_file');
    expect(text).not.toContain('globalShortcut');
    expect(diff.filter((line) => line.kind === 'removed').map((line) => line.text.trim())).toContain('"/home/me"');
    expect(diff.filter((line) => line.kind === 'added').map((line) => line.text.trim())).toContain('"proxy",');
    expect(changes(diff)).toBe(true);
    // The secret's line, if shown as context at all, carries the mask; a variable reference stays as written.
    const added = serversDiff('claude-desktop', before, { ...before, mcpServers: { ...before.mcpServers, extra: { command: 'x', env: { API_KEY: 'sk-added', LEVEL: '${env:LEVEL}' } } } });
    const addedText = added.filter((line) => line.kind === 'added').map((line) => line.text.trim());
    expect(addedText).toContain(`"API_KEY": "${SECRET_MASK}",`);
    expect(addedText).toContain('"LEVEL": "${env:LEVEL}"');
    expect(added.map((line) => line.text).join('\n')).not.toContain('sk-added');
  });

  it('folds long unchanged stretches, and says when nothing changes', () => {
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`s${index}`, { command: 'x', args: [String(index)] }]));
    const diff = serversDiff('vscode', { servers: many }, { servers: { ...many, s19: { command: 'y', args: ['19'] } } });
    expect(diff[0]).toMatchObject({ kind: 'skipped' });
    expect(diff.filter((line) => line.kind !== 'skipped').length).toBeLessThan(20);
    expect(changes(serversDiff('vscode', { servers: many }, { servers: many }))).toBe(false);
  });
});
