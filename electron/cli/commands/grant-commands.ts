// `mcp-roots grant|revoke SERVER ROOT...` and `mcp-roots status`: each says exactly what changed,
// and what did not (a root that was already granted, or never was).
import { Option, type Command } from 'commander';
import { NEW_GRANT_MODE, type GrantMode, type RootRecord, type ServerRecord } from '../../../shared/domain.js';
import type { CliContext } from '../cli-context.js';
import { formatStatus } from '../format.js';
import { UsageError } from '../exit-codes.js';
import { formatNetworkReport, networkReport } from '../network-report.js';
import type { RegistrySession } from '../registry-session.js';
import { statusReport, toJson } from '../registry-view.js';
import { findRoot, findServerRef } from '../../host/registry/registry-refs.js';
import { rootLabels } from '../../host/registry/root-labels.js';
import { GROUP, jsonOption } from './collect.js';
import fs from 'node:fs';
import path from 'node:path';
import { CodedError } from '../../../shared/result.js';
import { SENSITIVE_WHY, sensitiveFolder } from '../../host/sandbox/sensitive-folders.js';
import { shellWord } from '../../../shared/shell-word.js';
import { confirm } from '../confirm.js';

export function addGrantCommands(program: Command, context: CliContext): void {
  program
    .command('grant')
    .description('let a server see roots')
    .argument('<server>', 'id, short id or name')
    .argument('<root...>', 'id, short id, name or path')
    .addOption(new Option('--read-only', 'a read-only grant, the default for a new one (binding only where the OS sandbox runs the server)').conflicts('readWrite'))
    .option('--read-write', 'it may also change them')
    .option('--yes', 'grant a sensitive folder (home, credentials, a browser profile, the system) without asking; at a terminal it is asked, elsewhere refused without it')
    .addOption(jsonOption())
    .helpGroup(GROUP.folders)
    .addHelpText('after', '\nA grant given again without --read-only or --read-write keeps its mode.')
    .action((serverRef: string, rootRefs: string[], options: { json?: boolean; readOnly?: boolean; readWrite?: boolean; yes?: boolean }) => {
      const mode: GrantMode | undefined = options.readOnly ? 'read-only' : options.readWrite ? 'read-write' : undefined;
      return setGrants(context, serverRef, rootRefs, { grant: true, mode, confirmed: options.yes === true }, options.json === true);
    });

  program
    .command('revoke')
    .description('stop a server seeing roots')
    .argument('<server>', 'id, short id or name')
    .argument('<root...>', 'id, short id, name or path')
    .addOption(jsonOption())
    .helpGroup(GROUP.folders)
    .action((serverRef: string, rootRefs: string[], options: { json?: boolean }) => setGrants(context, serverRef, rootRefs, { grant: false }, options.json === true));

  program
    .command('status')
    .description('roots with their reachability, servers with their grants; with SERVER --network, the names and addresses it reached or was refused')
    .argument('[server]', 'with --network: id, short id or name')
    .option('--network', "the server's record of network destinations (kept for a server with a list of allowed hosts)")
    .addOption(jsonOption())
    .helpGroup(GROUP.folders)
    .action((serverRef: string | undefined, options: { json?: boolean; network?: boolean }) =>
      context.session(async (session) => {
        if (options.network || serverRef !== undefined) {
          if (!options.network || serverRef === undefined) throw new UsageError('Give a server and --network: mcp-roots status SERVER --network');
          const report = networkReport(context.configDir(), findServerRef(session.registry(), serverRef));
          return context.print(options.json ? toJson(report) : formatNetworkReport(report));
        }
        const report = statusReport(session, await session.proxies(), await session.liveApps());
        context.print(options.json ? toJson(report) : formatStatus(report));
      }),
    );
}

async function setGrants(context: CliContext, serverRef: string, rootRefs: string[], change: { grant: boolean; mode?: GrantMode | undefined; confirmed?: boolean }, json: boolean): Promise<void> {
  await context.session(async (session) => {
    const registry = session.registry();
    const server = findServerRef(registry, serverRef);
    const roots = [...new Map(rootRefs.map((ref) => findRoot(registry, ref, context.pathContext)).map((root) => [root.id, root])).values()];
    const before = { ...(registry.grants[server.id] ?? {}) };
    const { grant, mode } = change;
    // What each root's grant becomes: a new grant is read-only unless told; an old one keeps its mode unless told.
    const after = (root: RootRecord): GrantMode | undefined => (grant ? (mode ?? before[root.id] ?? NEW_GRANT_MODE) : undefined);
    const changing = roots.filter((root) => before[root.id] !== after(root));
    const unchanged = roots.filter((root) => before[root.id] === after(root));
    // A sensitive folder is granted only when asked for plainly, as the app asks before it (#30).
    if (grant && !change.confirmed) {
      const risky = sensitiveRisks(session, changing, context.pathContext.home);
      // Not with --json: the question would break the output a script reads.
      if (risky.length > 0 && context.io.stdin.isTTY === true && !json) {
        // Asked and declined is a choice, as import-registry takes it: nothing changed, exit 0.
        if (!(await confirmSensitive(context, risky))) return context.warn('not granted: nothing changed.');
      } else if (risky.length > 0) {
        const again = ['mcp-roots', 'grant', server.name, ...rootRefs, ...(mode ? [`--${mode}`] : [])].map(shellWord).join(' ');
        throw new CodedError('permission-denied', `not granted, to be sure: ${risky.join('; ')}. To grant it anyway: ${again} --yes`);
      }
    }
    if (changing.length > 0) {
      // One edit per target mode keeps each root's own: `grant fs a b` may add a and leave b read-only.
      for (const target of new Set(changing.map(after))) {
        const ids = changing.filter((root) => after(root) === target).map((root) => root.id);
        await session.setGrants([server.id], ids, grant, target);
      }
    }
    if (json) {
      const ids = (list: RootRecord[]) => list.map((root) => root.id);
      context.print(toJson(grant ? { server: server.id, granted: ids(changing), alreadyGranted: ids(unchanged) } : { server: server.id, revoked: ids(changing), notGranted: ids(unchanged) }));
      return;
    }
    const labels = rootLabels(session.registry().roots);
    const name = (root: RootRecord) => labels.get(root.id) ?? root.name;
    const names = (list: RootRecord[]) => list.map(name).join(', ');
    if (grant) {
      const added = changing.filter((root) => before[root.id] === undefined);
      const modeChanged = changing.filter((root) => before[root.id] !== undefined);
      if (added.length > 0) context.print(`granted ${names(added)} to ${server.name} (${after(added[0] as RootRecord)})`);
      for (const root of modeChanged) context.print(`${server.name} now has ${name(root)} ${after(root)} (was ${before[root.id]})`);
      if (unchanged.length > 0) context.print(`${server.name} already had ${unchanged.map((root) => `${name(root)} (${before[root.id]})`).join(', ')}`);
      const caveat = grantCaveat(session, server, changing);
      if (caveat) context.print(caveat);
    } else {
      if (changing.length > 0) context.print(`revoked ${names(changing)} from ${server.name}`);
      if (unchanged.length > 0) context.print(`${server.name} was not granted ${names(unchanged)}: nothing to revoke there`);
    }
  });
}

/** What granting or widening each sensitive folder among `changing` would open, in words. */
function sensitiveRisks(session: RegistrySession, changing: readonly RootRecord[], home: string): string[] {
  const places = { home: fs.realpathSync(home), dataDir: path.dirname(session.configPath) };
  return changing.flatMap((root) => {
    const kind = sensitiveFolder(root.path, places);
    return kind ? [`${root.path}: ${SENSITIVE_WHY[kind]}`] : [];
  });
}

/**
 * At a terminal the person is asked, after what is at stake (as the app's dialog asks); elsewhere
 * (a script, a pipe) the caller refuses without --yes: exit 1, nothing changed.
 */
async function confirmSensitive(context: CliContext, risky: readonly string[]): Promise<boolean> {
  context.io.out.write(`A sensitive folder: ${risky.join('; ')}.\n`);
  return confirm('Grant it anyway?', context.io.stdin, context.io.out);
}

/** Where a new grant does not reach the server yet, the reason. */
function grantCaveat(session: RegistrySession, server: ServerRecord, granted: RootRecord[]): string | undefined {
  if (granted.length === 0) return undefined;
  if (!server.enabled) return `${server.name} is disabled: it sees them once enabled (mcp-roots servers set ${shellWord(server.name)} --enabled on)`;
  if (!server.sharing) return `${server.name} has sharing off: it sees them once sharing is on (mcp-roots servers set ${shellWord(server.name)} --sharing on)`;
  const effective = new Set(session.effectiveRootIds(server.id));
  const hidden = session.rootViews().filter((root) => granted.some((g) => g.id === root.id) && !effective.has(root.id));
  if (hidden.length === 0) return undefined;
  return `not reachable now, so hidden from ${server.name} until they are: ${hidden.map((root) => `${root.name} (${root.access.state})`).join(', ')}`;
}
