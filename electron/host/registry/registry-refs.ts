// The CLI lets people name things the way they think of them: a root by id, short id, name or path
// (`.`, relative, `~/…`, absolute, file:// URI); a server by id, short id or name. A reference that
// fits several is an error that lists them, each with the short id that would pick it.
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Registry, RootRecord, ServerRecord } from '../../../shared/domain.js';
import { CodedError } from '../../../shared/result.js';
import { looksLikePath, resolveRootInput, type PathContext } from './root-input.js';
import { rootLabels } from './root-labels.js';
import { didYouMean } from './similar-names.js';
import { registryShortIds } from './short-ids.js';

/** A short id is accepted from this many characters on. */
const MIN_PREFIX = 4;

const here = (): PathContext => ({ cwd: process.cwd(), home: os.homedir() });

export function findRoot(registry: Registry, ref: string, context: PathContext = here()): RootRecord {
  const tiers: (() => RootRecord[])[] = [
    () => registry.roots.filter((root) => root.id === ref),
    () => registry.roots.filter((root) => root.name === ref),
    // The labels lists show for roots that share a name (`a/src`) work as references too.
    () => {
      const labels = rootLabels(registry.roots);
      return registry.roots.filter((root) => labels.get(root.id) === ref);
    },
    () => rootsAtPath(registry, ref, context, looksLikePath(ref)),
    () => byPrefix(registry.roots, ref),
    // A bare word that names no root may still be a folder under the current one: `grant fs docs`.
    () => (looksLikePath(ref) ? [] : rootsAtPath(registry, ref, context, true)),
  ];
  return pick(registry, tiers, ref, 'root');
}

export function findServerRef(registry: Registry, ref: string): ServerRecord {
  return pick(registry, serverTiers(registry.servers, ref), ref, 'server');
}

/**
 * The same rule over any list of servers (a proxy resolves its SERVER in the views' index): the
 * one match, or undefined when none or several match (findServerRef on the registry then says which).
 */
export function findServerIn<T extends { id: string; name: string }>(servers: readonly T[], ref: string): T | undefined {
  for (const tier of serverTiers(servers, ref)) {
    const matches = [...new Map(tier().map((match) => [match.id, match])).values()];
    if (matches.length > 0) return matches.length === 1 ? matches[0] : undefined;
  }
  return undefined;
}

function serverTiers<T extends { id: string; name: string }>(servers: readonly T[], ref: string): (() => T[])[] {
  return [() => servers.filter((server) => server.id === ref), () => servers.filter((server) => server.name === ref), () => byPrefix(servers, ref)];
}

function rootsAtPath(registry: Registry, ref: string, context: PathContext, asPath: boolean): RootRecord[] {
  if (!asPath) return [];
  let resolved: string;
  try {
    resolved = /^file:/i.test(ref) ? fileURLToPath(ref) : resolveRootInput(ref, context);
  } catch {
    return [];
  }
  let real: string | undefined;
  try {
    real = fs.realpathSync(resolved);
  } catch {
    // Gone from disk: the picked path may still name it.
  }
  return registry.roots.filter((root) => root.path === resolved || root.canonicalPath === resolved || root.canonicalPath === real);
}

function byPrefix<T extends { id: string }>(items: readonly T[], ref: string): T[] {
  return ref.length >= MIN_PREFIX ? items.filter((item) => item.id.startsWith(ref)) : [];
}

function pick<T extends { id: string; name: string }>(registry: Registry, tiers: (() => T[])[], ref: string, what: 'root' | 'server'): T {
  for (const tier of tiers) {
    const matches = [...new Map(tier().map((match) => [match.id, match])).values()];
    if (matches.length === 1) return matches[0] as T;
    if (matches.length > 1) throw ambiguous(registry, matches, ref, what);
  }
  const suggestion = didYouMean(ref, what === 'root' ? rootNames(registry) : registry.servers.map((server) => server.name));
  throw new CodedError('not-found', `No ${what} matches "${ref}"${suggestion} (see: mcp-roots ${what}s list).`);
}

/** The names a person types for roots: each name, and the labels that tell same-named ones apart. */
function rootNames(registry: Registry): string[] {
  const labels = rootLabels(registry.roots);
  return registry.roots.flatMap((root) => [root.name, labels.get(root.id) ?? root.name]);
}

function ambiguous(registry: Registry, matches: readonly { id: string; name: string }[], ref: string, what: 'root' | 'server'): CodedError {
  const short = registryShortIds(registry);
  const labels = rootLabels(registry.roots);
  const rootOf = new Map(registry.roots.map((root) => [root.id, root]));
  const lines = matches.map((match) => {
    const root = rootOf.get(match.id);
    return `  ${short.get(match.id) ?? match.id}  ${root ? `${labels.get(root.id) ?? root.name}  ${root.path}` : match.name}`;
  });
  return new CodedError('invalid-input', `"${ref}" matches ${matches.length} ${what}s; name one by its short id${what === 'root' ? ' or path' : ''}:\n${lines.join('\n')}`);
}
