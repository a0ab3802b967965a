// Commands that run their own host or none: serve, proxy, import, use-with. Each loads its module
// only when asked for, so `mcp-roots status` does not pay for a web server or an MCP client.
import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { HOST_KINDS } from '../../../shared/import-types.js';
import type { CliContext } from '../cli-context.js';
import { loadRunProxy } from '../proxy-entry.js';
import { collect, GROUP, jsonOption } from './collect.js';

export function addToolCommands(program: Command, context: CliContext): void {
  program
    .command('proxy')
    .description('stand in for a server as a stdio MCP server, telling it the registry\'s folders')
    .argument('<server>', 'id, short id or name')
    .addOption(new Option('--roots-policy <policy>', 'whose roots the server is told').choices(['registry', 'host']).default('registry'))
    .helpGroup(GROUP.everywhere)
    .action(async (server: string, options: { rootsPolicy: 'registry' | 'host' }) => {
      const configDir = context.configDir();
      const { runProxy } = await loadRunProxy(undefined, configDir);
      context.exitCode = await runProxy({ configDir, server, rootsPolicy: options.rootsPolicy });
    });

  program
    .command('import')
    .description('add servers from Claude Desktop, VS Code, Cursor or Claude Code configs')
    .addHelpText('after', '\nWithout --apply it only shows what it would import. An import never grants a folder.')
    .argument('[name...]', 'import only these entries (their names in the host config)')
    .addOption(new Option('--from <kind>', 'read this host\'s known configs (repeatable; default all)').choices(HOST_KINDS).argParser(collectChoice(HOST_KINDS)))
    .option('--file <path>', 'read this config file (repeatable)', collect)
    .addOption(new Option('--host <kind>', 'for --file: which host wrote it, when its name does not tell').choices(HOST_KINDS))
    .option('--workspace <dir>', 'a project folder whose workspace configs count (repeatable; default here)', collect)
    .option('--set <${var}=value>', 'a value for a variable in the config (repeatable)', collect)
    .option('--apply', 'import; without it, only show what would be imported')
    .addOption(jsonOption())
    .helpGroup(GROUP.everywhere)
    .action(async (names: string[], options: { from?: string[]; file?: string[]; host?: string; workspace?: string[]; set?: string[]; apply?: boolean; json?: boolean }) => {
      const { runImport } = await import('../../import/run-import.js');
      context.exitCode = await runImport({
        configDir: context.configDir(),
        from: options.from,
        files: options.file?.map((file) => context.resolvePath(file)),
        host: options.host,
        workspaces: options.workspace?.map((dir) => context.resolvePath(dir)),
        apply: options.apply === true,
        only: names,
        values: options.set,
        json: options.json === true,
        out: context.io.out,
        err: context.io.err,
      });
    });

  program
    .command('use-with')
    .description('make a host run servers through the proxy (keeps a backup)')
    .addArgument(new Argument('<kind>', 'the host').choices(HOST_KINDS))
    .argument('<server...>', 'id, short id or name')
    .option('--file <path>', 'the host\'s config file (default: its user config)')
    .option('--workspace <dir>', 'write that project\'s workspace config instead')
    .option('--project <dir>', 'claude-code only: that project\'s servers in ~/.claude.json')
    .addOption(new Option('--launcher <how>', 'node: absolute paths (default); path: plain mcp-roots from the host\'s PATH').choices(['node', 'path']))
    .addOption(new Option('--on-clash <choice>', 'where the host has a different server of that name: add ours beside it as NAME-2, or replace it (default: neither, nothing is written)').choices(['add', 'replace']))
    .addOption(jsonOption())
    .helpGroup(GROUP.everywhere)
    .action(async (kind: string, servers: string[], options: { file?: string; workspace?: string; project?: string; launcher?: string; onClash?: string; json?: boolean }) => {
      const { runUseWith } = await import('../../import/run-import.js');
      context.exitCode = await runUseWith({
        configDir: context.configDir(),
        host: kind,
        servers,
        file: options.file === undefined ? undefined : context.resolvePath(options.file),
        workspace: options.workspace === undefined ? undefined : context.resolvePath(options.workspace),
        project: options.project,
        launcher: options.launcher,
        onClash: options.onClash,
        json: options.json === true,
        out: context.io.out,
        err: context.io.err,
      });
    });

  program
    .command('serve')
    .description('the UI in a browser, on 127.0.0.1 with a one-time token')
    .option('--port <port>', 'the port (default 8765, or any free one when busy; 0 for any)')
    .option('--allow-second', 'serve even where the desktop app or another serve runs this registry (with --port; every server then runs twice)')
    .option('--no-open', 'do not open a browser')
    .helpGroup(GROUP.everywhere)
    .action(async (options: { port?: string; open: boolean; allowSecond?: boolean }) => {
      const { runServe } = await import('../../serve/run-serve.js');
      context.exitCode = await runServe({
        configDir: context.configDir(),
        port: options.port,
        allowSecond: options.allowSecond === true,
        open: options.open,
        out: context.io.out,
        err: context.io.err,
      });
    });
}

/** A repeatable option whose values come from a fixed list (commander checks choices per value). */
function collectChoice(choices: readonly string[]) {
  return (value: string, previous: string[] = []) => {
    if (!choices.includes(value)) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    return [...previous, value];
  };
}
