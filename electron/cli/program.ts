// The command table: every command, its arguments, options and help, in one commander tree. The
// help, the "did you mean" suggestions and the shell completions are all generated from it.
import { addAuditCommand } from './commands/audit-command.js';
import { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { cliVersion } from './cli-version.js';
import { addCompletionCommands } from './commands/completion-commands.js';
import { GROUP } from './commands/collect.js';
import { addGrantCommands } from './commands/grant-commands.js';
import { addWritableCommand } from './commands/writable-command.js';
import { addRootsCommands } from './commands/roots-commands.js';
import { addServerCommands } from './commands/server-commands.js';
import { addToolCommands } from './commands/tool-commands.js';
import { addTransferCommands } from './commands/transfer-commands.js';
import { EXIT } from './exit-codes.js';

const AFTER_HELP = `
ROOT is an id, a short id (its first characters, as lists show), a name or a path (., relative,
~/…, absolute, file://). SERVER is an id, a short id or a name.
The registry lives in --config-dir, else $MCP_ROOTS_CONFIG_DIR, else the desktop app's own folder;
a running app or \`mcp-roots serve\` notices an edit within a second and tells its servers.

Exit codes: ${EXIT.ok} ok, ${EXIT.failure} failure (also: part of the work failed), ${EXIT.usage} usage (a wrong command line,
a reference that fits several things).
Run 'mcp-roots help COMMAND' or 'mcp-roots COMMAND --help' for a command's options.`;

export function buildProgram(context: CliContext): Command {
  const program = new Command('mcp-roots')
    .description('Decide which folders each MCP server may see: the command line over the desktop app\'s registry.')
    .usage('[--config-dir DIR] COMMAND [options]')
    .version(cliVersion(), '-V, --version', 'print the version')
    .option('--config-dir <dir>', 'the registry\'s folder')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .addHelpText('after', AFTER_HELP);
  program.hook('preAction', () => {
    context.configDirFlag = program.opts<{ configDir?: string }>().configDir;
  });

  addRootsCommands(program, context);
  addGrantCommands(program, context);
  addWritableCommand(program, context);
  addServerCommands(program, context);
  addAuditCommand(program, context);
  addToolCommands(program, context);
  addTransferCommands(program, context);
  addCompletionCommands(program, context);
  addHelpCommand(program);

  for (const command of allCommands(program)) {
    command
      // One help command, at the top: `mcp-roots help servers add`.
      .helpCommand(false)
      .exitOverride()
      .showSuggestionAfterError(true)
      .showHelpAfterError(`Run '${commandPath(command)} --help' for usage.`)
      .configureOutput({
        writeOut: (text) => context.io.out.write(text),
        writeErr: (text) => context.io.err.write(text),
        // One line: "mcp-roots: <what>", with commander's suggestion folded in.
        outputError: (text, write) => write(`mcp-roots: ${text.replace(/^error: /, '').replace(/\n\(Did you mean (.*\?)\)/, ' (did you mean $1)').trimEnd()}\n`),
      });
  }
  return program;
}

/** `mcp-roots help [COMMAND...]`: that command's help, or a usage error with a suggestion. */
function addHelpCommand(program: Command): void {
  program
    .command('help')
    .description('show the help of a command')
    .argument('[command...]', 'e.g. servers add')
    .helpGroup(GROUP.shell)
    .action(async (words: string[]) => {
      let command = program;
      for (const word of words) {
        const next = command.commands.find((candidate) => candidate.name() === word || candidate.aliases().includes(word));
        // Let commander report the unknown word, with its "did you mean".
        if (!next) return void (await command.parseAsync([word], { from: 'user' }));
        command = next;
      }
      command.outputHelp();
    });
}

export function allCommands(root: Command): Command[] {
  return [root, ...root.commands.flatMap((command) => allCommands(command))];
}

export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}
