// `mcp-roots servers add|set|remove|list`.
import { Option, type Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { editLimits, limitOptions } from '../limit-options.js';
import { formatServers } from '../format.js';
import type { ServerInput } from '../registry-session.js';
import { statusReport, toJson } from '../registry-view.js';
import { findServerRef } from '../../host/registry/registry-refs.js';
import { editAllowedHosts } from '../allowed-host-flags.js';
import { editLocalPorts } from '../local-port-flags.js';
import { checkedServer, editPathMap, editTransport, ON_OFF_SETTINGS, transportFromFlags, type TransportEditFlags, type TransportFlags } from '../server-options.js';
import { registryShortIds } from '../../host/registry/short-ids.js';
import { collect, GROUP, jsonOption, listByDefault } from './collect.js';
import { shellWord } from '../../../shared/shell-word.js';
import { CodedError } from '../../../shared/result.js';

const COMMAND_USAGE = '-- COMMAND [ARG...]';

interface AddOptions extends TransportFlags {
  disabled?: boolean;
  sharing: boolean;
  json?: boolean;
}

interface SetOptions extends Omit<TransportEditFlags, 'cwd' | 'noCwd'> {
  name?: string;
  cwd?: string | false;
  json?: boolean;
  map?: string[];
  unmap?: string[];
  allowLocal?: string[];
  denyLocal?: string[];
  allowHost?: string[];
  denyHost?: string[];
  allowAnyHost?: boolean;
  [setting: string]: unknown;
}

export function addServerCommands(program: Command, context: CliContext): void {
  const servers = program.command('servers').description('the MCP servers the registry knows').helpGroup(GROUP.servers);

  const add = servers
    .command('add')
    .description('add a server; it sees no folder until you grant one')
    .usage(`NAME [options] ${COMMAND_USAGE}\n       NAME --url URL [options]`)
    .argument('<name>', 'the name to know it by')
    .argument('[command...]', 'after --: the command that starts it, and its arguments');
  commandOptions(add);
  add
    .option('--disabled', 'add it stopped')
    .option('--no-sharing', 'do not offer it roots at all (no roots capability)')
    .addOption(jsonOption())
    .addHelpText('after', `\nExamples:\n  mcp-roots servers add fs -- npx -y @modelcontextprotocol/server-filesystem '\${roots}'\n  mcp-roots servers add docs --url https://example.com/mcp --header "Authorization: Bearer TOKEN"\nIn --arg or --env values, \${roots} stands for the granted folders (\${roots:,} joins them).`)
    .action((name: string, words: string[], options: AddOptions) =>
      context.session(async (session) => {
        const input = checkedServer(
          { name: name.trim(), transport: transportFromFlags(options, words, context.pathContext), enabled: options.disabled !== true, sharing: options.sharing },
          false,
        );
        // A name taken: the next step, as the UI's form offers it (#30 item 8).
        if (session.registry().servers.some((existing) => existing.name === input.name)) {
          const quoted = shellWord(input.name);
          throw new CodedError('duplicate', `A server named "${input.name}" already exists. Change it with: mcp-roots servers set ${quoted} … (or -- COMMAND to replace its command), or add this one under another name: mcp-roots servers add ${shellWord(`${input.name}-2`)} …`);
        }
        const server = await session.addServer(input);
        const short = registryShortIds(session.registry()).get(server.id);
        if (options.json) return context.print(toJson(statusReport(session).servers.find((view) => view.id === server.id)));
        context.print(`added server ${server.name} (${short}); it sees no folder until you grant one: mcp-roots grant ${shellWord(server.name)} ROOT`);
      }),
    );

  const set = servers
    .command('set')
    .description('change a server: name, command, args, env, cwd, url, headers, on/off settings')
    .usage(`SERVER [options] [${COMMAND_USAGE}]`)
    .argument('<server>', 'id, short id or name')
    .argument('[command...]', 'after --: a new command and its arguments (replaces both)')
    .option('--name <name>', 'rename it');
  for (const setting of ON_OFF_SETTINGS) set.addOption(new Option(`--${setting.name} <state>`, setting.description).choices(['on', 'off']));
  commandOptions(set, 'replaces all arguments; give it once per argument');
  set
    .option('--unset-env <key>', 'remove an env variable (repeatable)', collect)
    .option('--no-cwd', 'run it in the default folder again')
    .option('--unset-header <key>', 'remove a header (repeatable)', collect)
    .option('--map <host=server>', 'tell it a folder at the path it sees it at, e.g. in a container (repeatable)', collect)
    .option('--unmap <host>', 'tell it that folder at its own path again (repeatable)', collect)
    .option('--allow-local <port>', "let it reach this port of this computer's loopback, with its network on: a local server behind mcp-remote (repeatable)", collect)
    .option('--deny-local <port>', 'take such a port back (repeatable)', collect)
    .option('--allow-host <host>', 'with its network on, let it reach only the hosts allowed this way: a name (api.github.com), *.github.com or an address, with an optional :PORT (repeatable; applied live)', collect)
    .option('--deny-host <host>', 'take such a host back (repeatable)', collect)
    .option('--allow-any-host', 'let it reach any host again (removes its list)');
  limitOptions(set);
  set
    .addOption(jsonOption())
    .addHelpText('after', `\nExamples:\n  mcp-roots servers set fs --sharing off\n  mcp-roots servers set fs --env LOG_LEVEL=debug --unset-env OLD_TOKEN\n  mcp-roots servers set remote --allow-local 3000\n  mcp-roots servers set github --allow-host api.github.com\n  mcp-roots servers set fs -- npx -y @modelcontextprotocol/server-filesystem '\${roots}'`)
    .action((ref: string, words: string[], options: SetOptions) => setServer(context, ref, words, options));

  servers
    .command('remove')
    .description('remove servers (and their grants)')
    .argument('<server...>', 'id, short id or name')
    .action((refs: string[]) =>
      context.session(async (session) => {
        const registry = session.registry();
        const short = registryShortIds(registry);
        const targets = [...new Map(refs.map((ref) => findServerRef(registry, ref)).map((server) => [server.id, server])).values()];
        for (const server of targets) {
          await session.removeServer(server.id);
          context.print(`removed server ${server.name} (${short.get(server.id)})`);
        }
      }),
    );

  servers
    .command('list')
    .description('every server with its command or URL, env or headers (secrets masked) and grants')
    .addOption(jsonOption())
    .action((options: { json?: boolean }) => listServers(context, options.json === true));
  listByDefault(servers, 'add, set, remove or list', (json) => listServers(context, json));
}

function listServers(context: CliContext, json: boolean): Promise<void> {
  return context.session(async (session) => {
    const report = statusReport(session);
    context.print(json ? toJson(report.servers) : formatServers(report.servers, report.roots, true));
  });
}

/** The flags that describe how a server is started or reached, shared by add and set. */
function commandOptions(command: Command, argHelp = 'an argument of the command (repeatable; may start with -)'): void {
  command
    .option('--command <command>', `the command that starts it (or give it after ${COMMAND_USAGE.split(' ')[0]})`)
    .option('--arg <arg>', argHelp, collect)
    .option('--env <key=value>', 'an environment variable (repeatable)', collect)
    .option('--cwd <dir>', 'the folder it runs in')
    .option('--url <url>', 'an MCP server reached over HTTP')
    .addOption(new Option('--transport <kind>', 'for --url: streamable HTTP or the older SSE').choices(['http', 'sse']))
    .option('--header <"key: value">', 'an HTTP header (repeatable)', collect);
}

async function setServer(context: CliContext, ref: string, words: string[], options: SetOptions): Promise<void> {
  await context.session(async (session) => {
    const server = findServerRef(session.registry(), ref);
    const patch: Partial<ServerInput> = {};
    const said: string[] = [];
    for (const setting of ON_OFF_SETTINGS) {
      const value = options[camel(setting.name)];
      if (value !== 'on' && value !== 'off') continue;
      const on = value === 'on';
      Object.assign(patch, setting.patch(on));
      said.push(setting.current(server) === on ? `${setting.name} was already ${value}` : `${setting.name} ${value}`);
    }
    if (options.name !== undefined && options.name.trim() !== server.name) {
      patch.name = options.name.trim();
      said.push(`renamed to ${patch.name}`);
    }
    const flags: TransportEditFlags = { ...options, cwd: typeof options.cwd === 'string' ? options.cwd : undefined, noCwd: options.cwd === false };
    const edit = editTransport(server.transport, flags, words, context.pathContext);
    if (edit) {
      patch.transport = edit.transport;
      said.push(...edit.changes.map((change) => (change.includes(' ') ? change : `${change} changed`)));
    }
    const mapEdit = editPathMap(server.pathMap, options.map, options.unmap, context.pathContext);
    if (mapEdit) {
      patch.pathMap = mapEdit.pathMap;
      said.push(...mapEdit.changes);
    }
    const portEdit = editLocalPorts(server.allowLocal, options.allowLocal, options.denyLocal);
    if (portEdit) {
      patch.allowLocal = portEdit.allowLocal;
      // pasta forwards the ports it is given at the server's start: the change restarts it (roots-change-policy.ts).
      const applies = !server.sandbox ? 'they apply once its sandbox is on' : !server.network ? 'they apply once its network is on' : 'a running server restarts to apply them';
      said.push(...portEdit.changes, applies);
    }
    const hostEdit = editAllowedHosts(server.allowHosts, options.allowHost, options.denyHost, options.allowAnyHost);
    if (hostEdit) {
      patch.allowHosts = hostEdit.allowHosts;
      // One list for another reaches a running server live; a list in place of any host (or back) restarts it.
      const live = server.allowHosts !== undefined && hostEdit.allowHosts !== null;
      const applies = !server.sandbox ? 'they apply once its sandbox is on' : !server.network ? 'they apply once its network is on' : live ? 'applied live to a running server' : 'a running server restarts to apply them';
      said.push(...hostEdit.changes, applies);
    }
    const limitEdit = editLimits(server.limits, options);
    if (limitEdit) {
      patch.limits = limitEdit.limits;
      // A confined server's limits are set when it starts: the change restarts it (roots-change-policy.ts).
      said.push(...limitEdit.changes, server.sandbox ? 'a running server restarts to apply them' : 'they apply once its sandbox is on');
    }
    if (said.length === 0) throw new UsageError('Nothing to change: give at least one option.');
    await session.updateServer(server.id, checkedServer(patch, true));
    if (options.json) return context.print(toJson(statusReport(session).servers.find((view) => view.id === server.id)));
    context.print(`${server.name}: ${said.join('; ')}`);
  });
}

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
