#!/usr/bin/env node
// `mcp-roots`: the command line over the same registry the app uses. A running app or
// `mcp-roots serve` notices these edits through its file watch and tells its servers.
import { CommanderError } from 'commander';
import { toHostError } from '../../shared/result.js';
import { CliContext, processIo, type CliIo } from './cli-context.js';
import { EXIT, exitCodeOf, UsageError } from './exit-codes.js';
import { buildProgram, commandPath } from './program.js';

/** Runs one command line; resolves with the exit code (0 ok, 1 failure, 2 usage). */
export async function main(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const context = new CliContext({ ...processIo(), ...io });
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

// Run when executed directly (the bin shim imports this file and calls main itself).
const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  // Exit only once stdout is drained: a proxy's last responses must reach its host.
  main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
}
