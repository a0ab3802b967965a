// `servers set NAME --allow-host HOST --deny-host HOST --allow-any-host`: the hosts a network-on
// server may reach (the registry's `allowHosts`), edited as a list, every entry checked by the one
// parser (shared/host-patterns.ts). A change from one list to another reaches a running server
// live; between a list and any host it restarts (roots-change-policy.ts).
import { parseHostPattern } from '../../shared/host-patterns.js';
import { UsageError } from './exit-codes.js';

/** The list with the flags applied (null: any host), and what changed in words; undefined when no flag is given. */
export function editAllowedHosts(
  current: readonly string[] | undefined,
  allow: readonly string[] | undefined,
  deny: readonly string[] | undefined,
  anyHost: boolean | undefined,
): { allowHosts: string[] | null; changes: string[] } | undefined {
  if (!allow?.length && !deny?.length && !anyHost) return undefined;
  if (anyHost && (allow?.length || deny?.length)) throw new UsageError('--allow-any-host replaces the list: give it alone, or --allow-host/--deny-host alone.');
  if (anyHost) return { allowHosts: null, changes: [current === undefined ? 'any host was already allowed' : 'any host allowed (its list of allowed hosts removed)'] };
  const next = [...(current ?? [])];
  const changes: string[] = current === undefined ? ['its network limited to a list of allowed hosts'] : [];
  const text = (word: string, flag: string) => {
    const parsed = parseHostPattern(word);
    if (!parsed.ok) throw new UsageError(`${flag}: ${parsed.error}.`);
    return parsed.pattern.text;
  };
  for (const word of deny ?? []) {
    const host = text(word, '--deny-host');
    const at = next.indexOf(host);
    if (at >= 0) next.splice(at, 1);
    changes.push(at >= 0 ? `${host} no longer allowed` : `${host} was not allowed`);
  }
  for (const word of allow ?? []) {
    const host = text(word, '--allow-host');
    changes.push(next.includes(host) ? `${host} was already allowed` : `${host} allowed`);
    if (!next.includes(host)) next.push(host);
  }
  return { allowHosts: next, changes };
}
