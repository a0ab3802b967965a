// Small pieces every command table uses.
import { Option } from 'commander';

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
