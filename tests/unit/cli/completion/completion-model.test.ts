// Completion reads the same command table as the help: a new command, option or on/off setting
// shows up in every shell's completion without a second list to keep.
import { describe, expect, it } from 'vitest';
import { CliContext, processIo } from '../../../../electron/cli/cli-context.js';
import { argumentAt, completionModel } from '../../../../electron/cli/completion/completion-model.js';
import { buildProgram } from '../../../../electron/cli/program.js';
import { ON_OFF_SETTINGS } from '../../../../electron/cli/server-options.js';

const models = completionModel(buildProgram(new CliContext(processIo())));
const at = (...path: string[]) => {
  const model = models.find((candidate) => candidate.path.join(' ') === path.join(' '));
  if (!model) throw new Error(`no command ${path.join(' ')}`);
  return model;
};

describe('the completion model', () => {
  it('has every visible command, and no hidden one', () => {
    expect(at().subcommands.map((sub) => sub.name)).toEqual(['roots', 'grant', 'revoke', 'status', 'writable', 'servers', 'audit', 'proxy', 'import', 'use-with', 'serve', 'export', 'import-registry', 'completion', 'help']);
    expect(at('servers').subcommands.map((sub) => sub.name)).toEqual(['add', 'set', 'remove', 'list']);
    expect(models.some((model) => model.path.includes('__names'))).toBe(false);
  });

  it('offers each on/off setting of servers set with its two values', () => {
    const options = at('servers', 'set').options;
    for (const setting of ON_OFF_SETTINGS) {
      expect(options.find((option) => option.names.includes(`--${setting.name}`))?.value).toEqual({ kind: 'choices', choices: ['on', 'off'] });
    }
  });

  it('knows what each argument and option value is', () => {
    expect(argumentAt(at('grant'), 0)).toEqual({ kind: 'servers' });
    expect(argumentAt(at('grant'), 5)).toEqual({ kind: 'roots' });
    expect(argumentAt(at('roots', 'add'), 0)).toEqual({ kind: 'dir' });
    expect(argumentAt(at('servers', 'add'), 1)).toEqual({ kind: 'command' });
    expect(argumentAt(at('completion'), 0)).toEqual({ kind: 'choices', choices: ['bash', 'zsh', 'fish'] });
    expect(argumentAt(at('use-with'), 0)).toEqual({ kind: 'choices', choices: ['claude-desktop', 'vscode', 'cursor', 'claude-code'] });
    expect(argumentAt(at('use-with'), 1)).toEqual({ kind: 'servers' });
    expect(argumentAt(at('audit'), 0)).toEqual({ kind: 'servers' });
    expect(at('servers', 'add').options.find((option) => option.names.includes('--cwd'))?.value).toEqual({ kind: 'dir' });
    expect(at('import').options.find((option) => option.names.includes('--from'))?.value).toEqual({ kind: 'choices', choices: ['claude-desktop', 'vscode', 'cursor', 'claude-code'] });
  });

  it('offers the global --config-dir under every command', () => {
    for (const model of models) expect(model.options.flatMap((option) => option.names), model.path.join(' ')).toContain('--config-dir');
  });
});
