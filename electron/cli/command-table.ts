// The command table's run: commander parses the line and runs the command. Loaded by main.ts for
// every command line but a plain proxy's (proxy-command-line.ts), which does not need it.
import { CommanderError } from 'commander';
import { toHostError } from '../../shared/result.js';
import type { CliContext } from './cli-context.js';
import { EXIT, exitCodeOf, UsageError } from './exit-codes.js';
import { buildProgram, commandPath } from './program.js';

/** Runs one command line through the command table; resolves with the exit code. */
export async function runCommandTable(argv: string[], context: CliContext): Promise<number> {
  const program = buildProgram(context);
  let current = program;
  program.hook('preAction', (_program, action) => {
    current = action;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error);
    const { message } = toHostError(error);
    context.warn(`mcp-roots: ${message}`);
    if (error instanceof UsageError) context.warn(`Run '${commandPath(current)} --help' for usage.`);
    return exitCodeOf(error);
  }
}

/** Commander has printed its message (or the help) already; only the code is left to decide. */
function commanderExit(error: CommanderError): number {
  if (error.exitCode === 0) return EXIT.ok;
  // A command without its subcommand (`mcp-roots servers`) prints that command's help: still a usage error.
  return EXIT.usage;
}
