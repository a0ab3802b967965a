// Which servers each folder is shared with, by name, as the macOS Privacy pane lists the apps of
// each category: a count alone ("1 of 7 servers") does not say who can read the folder.
import type { RootId, ServerView } from '../../../shared/domain.js';
import type { Translate } from '../../../shared/i18n/translate.js';

export interface SharedWith {
  /** Granted, in the server list's order. */
  servers: string[];
  /** Of those, the ones not told about it now (disabled, sharing off, or the folder unreachable). */
  hidden: string[];
}

const NONE: SharedWith = { servers: [], hidden: [] };

export function sharedWithByRoot(servers: readonly ServerView[]): (rootId: RootId) => SharedWith {
  const byRoot = new Map<RootId, SharedWith>();
  for (const server of servers) {
    const effective = new Set(server.effectiveRootIds);
    for (const rootId of server.grantedRootIds) {
      let entry = byRoot.get(rootId);
      if (!entry) byRoot.set(rootId, (entry = { servers: [], hidden: [] }));
      entry.servers.push(server.name);
      if (!effective.has(rootId)) entry.hidden.push(server.name);
    }
  }
  return (rootId) => byRoot.get(rootId) ?? NONE;
}

/** Names shown before "and N more": the rest are one look away, in the Access matrix. */
export const NAMES_SHOWN = 3;

/** "github, notes and 2 more". */
export function serverNames(t: Translate, names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  return names.length > NAMES_SHOWN ? t('roots.sharedMore', { names: shown, count: names.length - NAMES_SHOWN }) : shown;
}
