// A registry read from disk, sharing every part that did not change with the version before it.
//
// Another process's edit (the CLI granting one folder) makes the one writer read the whole file
// again, and the parse yields new objects for all of it. Everything downstream caches by identity
// (the roots index, the accessibility monitor's folder list, the UI's root views, the per-server
// views): with 10,000 new root objects each of those was rebuilt for an edit that touched one
// grant, ~0.5 s of CPU in the app at 10,000 roots, on the path from "file written" to "server
// told". Sharing what is equal keeps those caches valid, so a grant costs what it changes.
//
// Equality is by value (roots field by field, servers and settings by their JSON), so sharing
// never hides a change: a record that differs in anything is the new one.
import type { GrantMode, Registry, RootId, ServerId } from '../../../shared/domain.js';

/** `next` with every root, server, grant set and settings equal to `previous`'s replaced by `previous`'s object. */
export function shareUnchanged(previous: Registry | undefined, next: Registry): Registry {
  if (!previous) return next;
  return {
    schemaVersion: next.schemaVersion,
    roots: shareList(previous.roots, next.roots, sameFlat),
    servers: shareList(previous.servers, next.servers, sameJson),
    grants: shareGrants(previous.grants, next.grants),
    settings: sameJson(previous.settings, next.settings) ? previous.settings : next.settings,
  };
}

/** The list with equal items (matched by id) taken from `before`; `before` itself when nothing changed. */
function shareList<T extends { id: string }>(before: readonly T[], after: T[], same: (a: T, b: T) => boolean): T[] {
  let byId: Map<string, T> | undefined;
  let unchanged = before.length === after.length;
  const shared = after.map((item, i) => {
    // Files keep their order: look at the same place first, by id only when it moved.
    let old = before[i];
    if (old?.id !== item.id) old = (byId ??= new Map(before.map((each) => [each.id, each]))).get(item.id);
    if (old && same(old, item)) {
      if (old !== before[i]) unchanged = false;
      return old;
    }
    unchanged = false;
    return item;
  });
  return unchanged ? (before as T[]) : shared;
}

function shareGrants(
  before: Registry['grants'],
  after: Registry['grants'],
): Registry['grants'] {
  const shared: Record<ServerId, Record<RootId, GrantMode>> = {};
  let unchanged = Object.keys(before).length === Object.keys(after).length;
  for (const [serverId, granted] of Object.entries(after)) {
    const old = Object.hasOwn(before, serverId) ? before[serverId] : undefined;
    if (old && sameFlat(old, granted)) {
      shared[serverId] = old;
    } else {
      shared[serverId] = granted;
      unchanged = false;
    }
  }
  return unchanged ? before : shared;
}

/** Same keys, same primitive values (a root record, one server's grants). Plain loops: it runs 10,000 times an edit. */
function sameFlat<T extends object>(a: T, b: T): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (x[key] !== y[key]) return false;
    keys++;
  }
  return keys === Object.keys(y).length;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
