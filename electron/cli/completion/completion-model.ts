// The command table as shell completion needs it: for each command path (`servers add`), its
// subcommands, its options with what their values are, and what each positional argument is.
// Read from the same commander tree that prints the help, so the two cannot drift apart.
import type { Argument, Command, Option } from 'commander';

/** What to offer for a value: nothing special, folders, files, a fixed list, or the registry's names. */
export type ValueKind = { kind: 'none' } | { kind: 'dir' } | { kind: 'file' } | { kind: 'choices'; choices: string[] } | { kind: 'servers' } | { kind: 'roots' } | { kind: 'command' };

export interface OptionModel {
  /** Every spelling: ['-h', '--help']. */
  names: string[];
  description: string;
  /** undefined for a flag that takes no value. */
  value?: ValueKind;
}

export interface CommandModel {
  /** Words after `mcp-roots`: [] for the program, ['servers', 'add'] for `servers add`. */
  path: string[];
  description: string;
  subcommands: { name: string; description: string }[];
  /** This command's own options and those of every ancestor (global ones like --config-dir). */
  options: OptionModel[];
  /** One per positional; the last repeats when it is variadic. */
  args: ValueKind[];
  variadic: boolean;
}

/** Positional argument names the table uses, and what they hold. */
const ARGUMENT_KINDS: Record<string, ValueKind> = {
  server: { kind: 'servers' },
  root: { kind: 'roots' },
  path: { kind: 'dir' },
  dir: { kind: 'dir' },
  file: { kind: 'file' },
  command: { kind: 'command' },
};

export function completionModel(program: Command): CommandModel[] {
  const models: CommandModel[] = [];
  const visit = (command: Command, path: string[], inherited: OptionModel[]) => {
    const help = command.createHelp();
    const options = [...inherited, ...help.visibleOptions(command).map(optionModel)];
    const args = command.registeredArguments.map(argumentKind);
    models.push({
      path,
      description: command.description(),
      subcommands: help.visibleCommands(command).map((sub) => ({ name: sub.name(), description: sub.description() })),
      options: uniqueByName(options),
      args,
      variadic: command.registeredArguments.at(-1)?.variadic ?? false,
    });
    for (const sub of help.visibleCommands(command)) visit(sub, [...path, sub.name()], inheritable(command, inherited));
  };
  visit(program, [], []);
  return models;
}

/** Options of a command that its subcommands accept too (commander reads a program's options anywhere). */
function inheritable(command: Command, inherited: OptionModel[]): OptionModel[] {
  if (command.parent) return inherited;
  const help = command.createHelp();
  return help
    .visibleOptions(command)
    .filter((option) => option.long !== '--help' && option.long !== '--version')
    .map(optionModel);
}

function optionModel(option: Option): OptionModel {
  const names = [option.short, option.long].filter((name): name is string => name !== undefined);
  if (!option.required && !option.optional) return { names, description: option.description };
  return { names, description: option.description, value: optionValueKind(option) };
}

function optionValueKind(option: Option): ValueKind {
  if (option.argChoices) return { kind: 'choices', choices: [...option.argChoices] };
  const placeholder = /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags);
  const name = (placeholder?.[1] ?? placeholder?.[2] ?? '').toLowerCase();
  if (name === 'dir') return { kind: 'dir' };
  if (name === 'path' || name === 'file') return { kind: 'file' };
  return { kind: 'none' };
}

function argumentKind(argument: Argument): ValueKind {
  if (argument.argChoices) return { kind: 'choices', choices: [...argument.argChoices] };
  return ARGUMENT_KINDS[argument.name()] ?? { kind: 'none' };
}

function uniqueByName(options: OptionModel[]): OptionModel[] {
  const seen = new Set<string>();
  return options.filter((option) => {
    const key = option.names.join(' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The kind of the positional at `index` (0-based), the last one repeating when variadic. */
export function argumentAt(model: CommandModel, index: number): ValueKind {
  if (index < model.args.length) return model.args[index] as ValueKind;
  return model.variadic ? (model.args.at(-1) as ValueKind) : { kind: 'none' };
}
