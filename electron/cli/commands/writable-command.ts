// `mcp-roots writable SERVER ROOT [NAME...]`: the per-grant choice to leave protected names (git
// hooks, editor and agent configs…) writable in one read-write grant. Without names it shows the
// choice; --none takes it back. Said exactly as the sandbox enforces it (protected-paths.ts).
import type { Command } from 'commander';
import { PROTECTED_NAMES } from '../../../shared/protected-names.js';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { toJson } from '../registry-view.js';
import { findRoot, findServerRef } from '../../host/registry/registry-refs.js';
import { rootLabels } from '../../host/registry/root-labels.js';
import { GROUP, jsonOption } from './collect.js';
import { shellWord } from '../../../shared/shell-word.js';

export function addWritableCommand(program: Command, context: CliContext): void {
  program
    .command('writable')
    .description('leave protected paths (.vscode, .git/hooks…) writable in one read-write grant, by your choice')
    .argument('<server>', 'id, short id or name')
    .argument('<root>', 'id, short id, name or path of a folder the server is granted')
    .argument('[name...]', 'protected names to leave writable (replaces the grant’s choice)')
    .option('--none', 'protect every name again in this grant')
    .addOption(jsonOption())
    .helpGroup(GROUP.folders)
    .addHelpText('after', `\nA read-only grant ignores the choice. Revoking the grant drops it.\nProtected names: ${PROTECTED_NAMES.join(' ')}`)
    .action((serverRef: string, rootRef: string, names: string[], options: { none?: boolean; json?: boolean }) =>
      context.session(async (session) => {
        if (options.none && names.length > 0) throw new UsageError('Give names or --none, not both.');
        const registry = session.registry();
        const server = findServerRef(registry, serverRef);
        const root = findRoot(registry, rootRef, context.pathContext);
        const label = rootLabels(registry.roots).get(root.id) ?? root.name;
        if (options.none || names.length > 0) await session.setWritableByChoice(server.id, root.id, options.none ? [] : names);
        const now = session.registry();
        const chosen = now.servers.find((s) => s.id === server.id)?.writableByChoice?.[root.id] ?? [];
        const mode = now.grants[server.id]?.[root.id];
        if (options.json) return context.print(toJson({ server: server.id, root: root.id, mode: mode ?? null, writableByChoice: chosen }));
        const ignored = mode === 'read-only' ? ' (ignored while the grant is read-only)' : '';
        const state = chosen.length === 0 ? `${server.name}: every protected path in ${label} is read-only` : `${server.name}: writable by your choice in ${label}: ${chosen.join(', ')}${ignored}; the rest stay read-only`;
        if (options.none || names.length > 0) return context.print(state);
        // Asked without names: the choice itself, as the README promises (#30 item 8): what may be
        // left writable, and the line that does it.
        const open = PROTECTED_NAMES.filter((name) => !chosen.includes(name));
        const line = `mcp-roots writable ${shellWord(server.name)} ${shellWord(label)} NAME…`;
        // A read-only grant ignores the choice: say so before offering one (a new-user walk, #30).
        const readOnly = mode === 'read-only' ? [`The grant is read-only, so nothing in it is writable; a choice counts once it is read-write: mcp-roots grant ${shellWord(server.name)} ${shellWord(label)} --read-write`] : [];
        context.print([state, ...readOnly, `You may leave any of these writable in this grant: ${open.join(' ')}`, `With: ${line}${chosen.length ? ` (the names given replace the choice; --none protects them all again)` : ''}`].join('\n'));
      }),
    );
}
