// `servers set NAME --allow-local PORT --deny-local PORT`: the ports of this computer's loopback a
// network-on server may reach (the registry's `allowLocal`), edited as a list, every word checked.
import { UsageError } from './exit-codes.js';

/** A port as a person types it: digits only, 1 to 65535 ("8080", not "8080/tcp" or "0x1f90"). */
export function localPort(word: string, flag: string): number {
  const port = /^\d{1,5}$/.test(word.trim()) ? Number(word.trim()) : Number.NaN;
  if (!(port >= 1 && port <= 65535)) throw new UsageError(`${flag} takes a port of this computer, a whole number between 1 and 65535; got "${word}".`);
  return port;
}

/** The list with the flags applied (sorted, each once), and what changed in words; undefined when no flag is given. */
export function editLocalPorts(
  current: readonly number[] | undefined,
  allow: readonly string[] | undefined,
  deny: readonly string[] | undefined,
): { allowLocal: number[]; changes: string[] } | undefined {
  if (!allow?.length && !deny?.length) return undefined;
  const next = new Set(current ?? []);
  const changes: string[] = [];
  for (const word of deny ?? []) {
    const port = localPort(word, '--deny-local');
    changes.push(next.delete(port) ? `local port ${port} closed` : `local port ${port} was not open`);
  }
  for (const word of allow ?? []) {
    const port = localPort(word, '--allow-local');
    changes.push(next.has(port) ? `local port ${port} was already open` : `local port ${port} open`);
    next.add(port);
  }
  return { allowLocal: [...next].sort((a, b) => a - b), changes };
}
