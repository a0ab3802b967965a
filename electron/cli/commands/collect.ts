// Small pieces every command table uses.
import { Option, type Command } from 'commander';

/** A repeatable option: `--arg a --arg b` gives ['a', 'b']. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const jsonOption = () => new Option('--json', 'print JSON for scripts (times in ISO 8601)');

/** Headings of the top-level help, in the order they are shown. */
export const GROUP = {
  folders: 'Folders and consent:',
  servers: 'Servers:',
  everywhere: 'Roots for hosts and servers that have none:',
  registry: 'The registry:',
  shell: 'Shell:',
} as const;

/**
 * A group (`servers`, `roots`) run alone lists, as `list` does (#30: it printed its help and exited
 * 2). A word that is no subcommand is still reported as commander reports it, with its suggestion.
 */
export function listByDefault(group: Command, subcommands: string, list: (json: boolean) => Promise<void>): void {
  group
    .usage('[options] [command]')
    .argument('[subcommand]', `${subcommands}; none: list`)
    // No --json here: commander gives a group's options precedence after its subcommand too, so it
    // would take `roots add DIR --json` from `add`. `list --json` is the scripts' way.
    .action((word: string | undefined, _options: unknown, command: Command) => {
      // commander's own report of an unknown subcommand ("unknown command 'lst' (did you mean list?)").
      if (word !== undefined) return (command as unknown as { unknownCommand(): void }).unknownCommand();
      return list(false);
    });
}
