// `mcp-roots roots add|remove|rename|list`.
import fs from 'node:fs';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { formatRoots } from '../format.js';
import { statusReport, toJson } from '../registry-view.js';
import { findRoot } from '../../host/registry/registry-refs.js';
import { resolveRootInput } from '../../host/registry/root-input.js';
import { registryShortIds } from '../../host/registry/short-ids.js';
import { GROUP, jsonOption, listByDefault } from './collect.js';

export function addRootsCommands(program: Command, context: CliContext): void {
  const roots = program.command('roots').description('the folders servers may be granted').helpGroup(GROUP.folders);

  roots
    .command('add')
    .description('add folders: paths (., relative, ~/…, absolute) or file:// URIs')
    .argument('<path...>', 'the folders')
    .addOption(jsonOption())
    .action((paths: string[], options: { json?: boolean }) => addRoots(context, paths, options.json === true));

  roots
    .command('remove')
    .description('remove roots; this revokes them from every server')
    .argument('<root...>', 'id, short id, name or path')
    .action((refs: string[]) =>
      context.session(async (session) => {
        const registry = session.registry();
        const targets = unique(refs.map((ref) => findRoot(registry, ref, context.pathContext)));
        const short = registryShortIds(registry);
        const holders = (rootId: string) => registry.servers.filter((server) => registry.grants[server.id]?.[rootId] !== undefined).map((server) => server.name);
        await session.removeRoots(targets.map((root) => root.id));
        for (const root of targets) {
          const had = holders(root.id);
          context.print(`removed ${root.name} (${short.get(root.id)})${had.length > 0 ? `; revoked from ${had.join(', ')}` : ''}`);
        }
      }),
    );

  roots
    .command('rename')
    .description('give a root the name servers and lists show')
    .argument('<root>', 'id, short id, name or path')
    .argument('<name>', 'the new name')
    .action((ref: string, name: string) =>
      context.session(async (session) => {
        const root = findRoot(session.registry(), ref, context.pathContext);
        await session.renameRoot(root.id, name.trim());
        context.print(`renamed ${root.name} to ${name.trim()}`);
      }),
    );

  roots
    .command('list')
    .description('every root with its short id and whether it is reachable')
    .addOption(jsonOption())
    .action((options: { json?: boolean }) => listRoots(context, options.json === true));
  listByDefault(roots, 'add, remove, rename or list', (json) => listRoots(context, json));
}

function listRoots(context: CliContext, json: boolean): Promise<void> {
  return context.session(async (session) => {
    const report = statusReport(session);
    context.print(json ? toJson(report.roots) : formatRoots(report.roots));
  });
}

async function addRoots(context: CliContext, paths: string[], json: boolean): Promise<void> {
  await context.session(async (session) => {
    const result = await session.addRoots(paths.map((input) => resolveRootInput(input, context.pathContext)));
    const report = statusReport(session);
    const added = report.roots.filter((root) => result.added.some((view) => view.id === root.id));
    // Adding a folder that is already a root is not a failure: it is there, as asked.
    const existing = result.failed.filter((failure) => failure.code === 'duplicate').map((failure) => rootAt(report.roots, failure.input));
    const failed = result.failed.filter((failure) => failure.code !== 'duplicate');
    if (failed.length > 0) context.exitCode = 1;
    if (json) {
      context.print(toJson({ added, existing: existing.filter((root) => root !== undefined), failed }));
      return;
    }
    for (const root of added) context.print(`added ${root.label}  ${root.path}  (${root.shortId})`);
    for (const root of existing) if (root) context.print(`already a root: ${root.label}  ${root.path}  (${root.shortId})`);
    for (const failure of failed) context.warn(`mcp-roots: not added: ${failure.message}`);
  });
}

function rootAt<T extends { path: string; canonicalPath: string }>(roots: readonly T[], input: string): T | undefined {
  let real: string | undefined;
  try {
    real = fs.realpathSync(input);
  } catch {
    // Then only the picked path can match.
  }
  return roots.find((root) => root.path === input || root.canonicalPath === input || root.canonicalPath === real);
}

const unique = <T extends { id: string }>(items: T[]): T[] => [...new Map(items.map((item) => [item.id, item])).values()];
