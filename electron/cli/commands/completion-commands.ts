// `mcp-roots completion bash|zsh|fish` prints a completion script generated from the command table;
// the hidden `mcp-roots __names servers|roots` gives those scripts the registry's names.
import { Argument, type Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { bashCompletion } from '../completion/bash-completion.js';
import { completionModel } from '../completion/completion-model.js';
import { fishCompletion } from '../completion/fish-completion.js';
import { zshCompletion } from '../completion/zsh-completion.js';
import { GROUP } from './collect.js';

const SHELLS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;

export function addCompletionCommands(program: Command, context: CliContext): void {
  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(Object.keys(SHELLS)))
    .helpGroup(GROUP.shell)
    .addHelpText('after', '\nLoad it:\n  bash: source <(mcp-roots completion bash)\n  zsh:  source <(mcp-roots completion zsh)\n  fish: mcp-roots completion fish | source')
    .action((shell: keyof typeof SHELLS) => {
      context.io.out.write(SHELLS[shell](completionModel(program)));
    });

  program
    .command('__names', { hidden: true })
    .argument('<what>', 'servers or roots')
    .action((what: string) =>
      context.session(async (session) => {
        const registry = session.registry();
        const names = what === 'servers' ? registry.servers.map((server) => server.name) : what === 'roots' ? registry.roots.map((root) => root.name) : [];
        if (names.length > 0) context.print([...new Set(names)].join('\n'));
      }),
    );
}
