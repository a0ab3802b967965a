// `mcp-roots export [FILE]` and `mcp-roots import-registry FILE`: the registry to a file and back,
// for a new machine. The import merges (roots by canonical path, servers by name), shows every
// grant it would add and applies those only when confirmed; running it twice changes nothing.
import fs from 'node:fs';
import type { Command } from 'commander';
import { canonicalizeRoot } from '../../host/registry/file-uri.js';
import { toHostError } from '../../../shared/result.js';
import type { CliContext } from '../cli-context.js';
import { confirm } from '../confirm.js';
import { shellWord } from '../../../shared/shell-word.js';
import { exportRegistry, parseExport, type ExportDocument } from '../registry-export.js';
import { isEmptyPlan, planMerge, type MergePlan, type RootHere } from '../registry-merge.js';
import type { RegistrySession } from '../registry-session.js';
import { rootLabels } from '../../host/registry/root-labels.js';
import { toJson } from '../registry-view.js';
import { GROUP, jsonOption } from './collect.js';

export function addTransferCommands(program: Command, context: CliContext): void {
  program
    .command('export')
    .description('write the registry to a file, for another machine')
    .addHelpText('after', '\nSecret values (tokens, keys, passwords in URLs) are left out and named, unless --include-secrets.\nValues the desktop app encrypted are always left out: only that app can read them.')
    .argument('[file]', 'where to write it; without it, stdout')
    .option('--include-secrets', 'write secret values (tokens, keys) in clear; the file is then readable by you only')
    .option('--force', 'overwrite FILE if it exists')
    .helpGroup(GROUP.registry)
    .action((file: string | undefined, options: { includeSecrets?: boolean; force?: boolean }) =>
      context.session(async (session) => {
        const document = exportRegistry(session.registry(), options.includeSecrets === true);
        const text = `${toJson(document)}\n`;
        if (file === undefined || file === '-') context.io.out.write(text);
        else writeExport(context.resolvePath(file), text, options.force === true);
        const where = file === undefined || file === '-' ? 'stdout' : context.resolvePath(file);
        context.warn(`exported ${document.roots.length} root(s) and ${document.servers.length} server(s) to ${where}`);
        for (const server of document.servers) {
          if (server.leftOut.length > 0) context.warn(`  ${server.name}: left out ${server.leftOut.join(', ')}`);
        }
        if (document.servers.some((server) => server.leftOut.some((entry) => !entry.includes('encrypted')))) {
          context.warn('Secrets were left out; add --include-secrets to write them in clear.');
        }
      }),
    );

  program
    .command('import-registry')
    .description('merge an export: roots by path, servers by name, grants once confirmed')
    .addHelpText('after', '\nA server already here keeps its own config. The grants the file adds are listed and applied only\nwith --yes or when you confirm at the prompt. Importing the same file again changes nothing.')
    .argument('<file>', 'a file written by mcp-roots export')
    .option('--yes', 'grant what the file grants without asking')
    .option('--dry-run', 'only show what would change')
    .addOption(jsonOption())
    .helpGroup(GROUP.registry)
    .action((file: string, options: { yes?: boolean; dryRun?: boolean; json?: boolean }) => importRegistry(context, file, options));
}

function writeExport(file: string, text: string, force: boolean): void {
  try {
    // Only you can read it: it names your folders, and may hold secrets.
    fs.writeFileSync(file, text, { mode: 0o600, flag: force ? 'w' : 'wx' });
    if (force) fs.chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`${file} exists; add --force to overwrite it.`, { cause: error });
    throw error;
  }
}

async function importRegistry(context: CliContext, file: string, options: { yes?: boolean; dryRun?: boolean; json?: boolean }): Promise<void> {
  const path = context.resolvePath(file);
  let content: string;
  try {
    content = fs.readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const document = parseExport(content, path);
  const here = await locateRoots(document);
  await context.session(async (session) => {
    const plan = planMerge(document, session.registry(), here);
    if (!options.json) context.print(describePlan(plan, path, session.configPath));
    if (isEmptyPlan(plan)) {
      if (options.json) context.print(toJson({ plan, applied: false, grantsApplied: false }));
      else context.print('Nothing to import: everything in the file is here already.');
      return;
    }
    if (options.dryRun) {
      if (options.json) context.print(toJson({ plan, applied: false, grantsApplied: false }));
      else context.print('Dry run: nothing changed.');
      return;
    }
    const grantsConfirmed = plan.grants.length === 0 || options.yes === true || (context.io.stdin.isTTY === true && (await confirm(`Grant these ${plan.grants.length}?`, context.io.stdin, context.io.out)));
    const outcome = await applyPlan(session, plan, grantsConfirmed);
    if (plan.grants.length > 0 && !grantsConfirmed) {
      // Asked and declined is a choice; not asked (no terminal, no --yes) leaves the import unfinished.
      if (context.io.stdin.isTTY !== true) context.exitCode = 1;
    }
    if (outcome.failed.length > 0) context.exitCode = 1;
    if (options.json) return context.print(toJson({ plan, applied: true, grantsApplied: grantsConfirmed && plan.grants.length > 0, failed: outcome.failed }));
    context.print(outcome.lines.join('\n'));
    if (plan.grants.length > 0 && !grantsConfirmed) {
      context.warn(`${plan.grants.length} grant(s) not applied${context.io.stdin.isTTY === true ? '' : ': confirm them with --yes (or run this in a terminal to be asked)'}.`);
    }
    for (const failure of outcome.failed) context.warn(`mcp-roots: ${failure}`);
  });
}

/** Each exported root as found here: its canonical path, or why it cannot be a root here. */
async function locateRoots(document: ExportDocument): Promise<Map<string, RootHere>> {
  const here = new Map<string, RootHere>();
  for (const root of document.roots) {
    try {
      here.set(root.path, { canonicalPath: (await canonicalizeRoot(root.path)).canonicalPath });
    } catch (error) {
      here.set(root.path, { error: toHostError(error).message });
    }
  }
  return here;
}

async function applyPlan(session: RegistrySession, plan: MergePlan, grantsConfirmed: boolean): Promise<{ lines: string[]; failed: string[] }> {
  const lines: string[] = [];
  const failed: string[] = [];
  const newRoots = plan.roots.filter((root) => root.status === 'add');
  if (newRoots.length > 0) {
    const result = await session.addRoots(newRoots.map((root) => root.path));
    for (const failure of result.failed) failed.push(`root not added: ${failure.message}`);
    for (const added of result.added) {
      const planned = newRoots.find((root) => root.canonicalPath === added.canonicalPath);
      if (planned && planned.name !== added.name) await session.renameRoot(added.id, planned.name);
    }
    if (result.added.length > 0) lines.push(`added ${result.added.length} root(s)`);
  }
  for (const server of plan.servers) {
    if (server.status !== 'add' || !server.input) continue;
    try {
      await session.addServer(server.input);
      lines.push(`added server ${server.name}${server.leftOut.length > 0 ? `, disabled until you fill in ${server.leftOut.join(', ')}: ${fillInCommand(server.name, server.leftOut)}` : ''}`);
    } catch (error) {
      failed.push(`server ${server.name} not added: ${toHostError(error).message}`);
    }
  }
  if (grantsConfirmed && plan.grants.length > 0) {
    const registry = session.registry();
    let count = 0;
    for (const grant of plan.grants) {
      const server = registry.servers.find((candidate) => candidate.name === grant.server);
      const root = registry.roots.find((candidate) => candidate.canonicalPath === grant.canonicalPath);
      if (!server || !root) {
        failed.push(`not granted ${grant.rootPath} to ${grant.server}: ${!server ? 'the server' : 'the root'} is not here`);
        continue;
      }
      await session.setGrants([server.id], [root.id], true, grant.mode);
      count++;
    }
    if (count > 0) lines.push(`granted ${count} root(s)`);
  }
  return { lines, failed };
}

/** The command that fills in what the export left out, and enables the server. */
function fillInCommand(name: string, leftOut: readonly string[]): string {
  const flags = leftOut.map((entry) => {
    const [where, key] = entry.split(' ');
    if (where === 'env') return `--env ${key}=…`;
    if (where === 'header') return `--header "${key}: …"`;
    if (where === 'url') return '--url …';
    return '-- COMMAND ARG…';
  });
  const unique = [...new Set(flags)];
  // The command after -- comes last, as on any command line.
  const command = unique.filter((flag) => flag.startsWith('-- '));
  return `mcp-roots servers set ${shellWord(name)} ${[...unique.filter((flag) => !flag.startsWith('-- ')), '--enabled on', ...command].join(' ')}`;
}

function describePlan(plan: MergePlan, file: string, configPath: string): string {
  const lines = [`Importing ${file}`, `into ${configPath}`];
  const labels = rootLabels(plan.roots.map((root) => ({ id: root.path, name: root.name, path: root.path })));
  if (plan.roots.length > 0) lines.push('Roots:');
  for (const root of plan.roots) {
    const label = labels.get(root.path) ?? root.name;
    if (root.status === 'add') lines.push(`  + ${label}  ${root.path}`);
    else if (root.status === 'exists') lines.push(`  = ${label}  ${root.path}  (already a root)`);
    else lines.push(`  ! ${label}  ${root.path}  (not added: ${root.reason})`);
  }
  if (plan.servers.length > 0) lines.push('Servers:');
  for (const server of plan.servers) {
    if (server.status === 'add') lines.push(`  + ${server.name}${server.leftOut.length > 0 ? `  (left out of the file: ${server.leftOut.join(', ')}; added disabled)` : ''}`);
    else lines.push(`  = ${server.name}  (already here${server.differs.length > 0 ? `; keeps its own ${server.differs.join(', ')}` : ''})`);
  }
  if (plan.grants.length > 0) {
    lines.push('Grants to confirm (each lets a server see a folder):');
    for (const grant of plan.grants) {
      const mode = grant.modeHere ? `  (${grant.mode}; ${grant.modeHere} here now)` : grant.mode === 'read-only' ? '  (read-only)' : '';
      lines.push(`  ${grant.server} -> ${grant.rootPath}${mode}`);
    }
  }
  for (const skipped of plan.skippedGrants) lines.push(`  ! ${skipped.server} -> ${skipped.rootPath}  (not granted: ${skipped.reason})`);
  return lines.join('\n');
}
