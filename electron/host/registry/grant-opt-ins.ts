// The person's per-grant choice to leave some protected names writable (shared/protected-names.ts):
// set on one existing grant, and dropped with the grant, so that a folder granted again later starts
// protected again (a grant never widens by accident).
import type { Registry, RootId, ServerId, ServerRecord } from '../../../shared/domain.js';
import { optInProblem, PROTECTED_NAMES } from '../../../shared/protected-names.js';
import { CodedError } from '../../../shared/result.js';
import type { Edit } from './registry-edits.js';

/** Sets the protected names left writable in the grant of `rootId` to `serverId` (an empty list: none). */
export function setWritableByChoice(serverId: ServerId, rootId: RootId, names: readonly string[]): Edit<ServerRecord> {
  return (registry) => {
    const server = registry.servers.find((s) => s.id === serverId);
    if (!server) throw new CodedError('not-found', `No server with id ${serverId}.`);
    if (registry.grants[serverId]?.[rootId] === undefined) {
      throw new CodedError('not-found', `${server.name} has no grant of that folder: grant it first, then choose what stays writable.`);
    }
    const problem = optInProblem(names);
    if (problem) throw new CodedError('invalid-input', problem);
    // The list's own order, whatever the person's: files stay stable, and the UI shows one order.
    const sorted = PROTECTED_NAMES.filter((name) => names.includes(name));
    const servers = withChoice(registry.servers, serverId, rootId, sorted);
    return { registry: { ...registry, servers }, value: servers.find((s) => s.id === serverId)! };
  };
}

/** The servers with the choice of one grant set to exactly `names` (undefined or empty: none). */
export function withChoice(servers: ServerRecord[], serverId: ServerId, rootId: RootId, names: readonly string[] | undefined): ServerRecord[] {
  return servers.map((server) => {
    if (server.id !== serverId) return server;
    const { [rootId]: previous, ...others } = server.writableByChoice ?? {};
    if (!names?.length && previous === undefined) return server;
    const choices = names?.length ? { ...others, [rootId]: [...names] } : others;
    const { writableByChoice: _old, ...rest } = server;
    return Object.keys(choices).length > 0 ? { ...rest, writableByChoice: choices } : rest;
  });
}

/** The servers without the choices of grants that are gone (revoked, or their folder removed). */
export function dropChoicesOfGone(registry: Registry): Registry {
  let changed = false;
  const servers = registry.servers.map((server) => {
    if (!server.writableByChoice) return server;
    const granted = registry.grants[server.id] ?? {};
    const kept = Object.fromEntries(Object.entries(server.writableByChoice).filter(([rootId]) => granted[rootId] !== undefined));
    if (Object.keys(kept).length === Object.keys(server.writableByChoice).length) return server;
    changed = true;
    const { writableByChoice: _old, ...rest } = server;
    return Object.keys(kept).length > 0 ? { ...rest, writableByChoice: kept } : rest;
  });
  return changed ? { ...registry, servers } : registry;
}
