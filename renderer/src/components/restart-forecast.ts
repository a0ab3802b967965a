// "Applies by restarting <server>", said before a grant or revoke is made, from the host's own
// roots-change policy (ServerView.changeRestarts): the renderer never decides it a second time.
import { DRAIN_LIMIT_MS, type RestartWhy, type ServerView } from '../../../shared/domain.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import type { Translate } from '../../../shared/i18n/translate.js';

const WHY_KEYS: Record<RestartWhy, MessageKey> = {
  arguments: 'restartWhy.arguments',
  mounts: 'restartWhy.mounts',
  forget: 'restartWhy.forget',
  reask: 'restartWhy.reask',
  retry: 'restartWhy.retry',
};

export interface RestartTitles {
  /** Shown on a cell not granted yet: what ticking it does. */
  grant?: string | undefined;
  /** Shown on a granted cell: what unticking it does. */
  revoke?: string | undefined;
}

/** What a grant and a revoke would restart, in words; undefined when neither restarts it. */
export function restartForecast(t: Translate, server: Pick<ServerView, 'name' | 'changeRestarts'>): RestartTitles | undefined {
  const say = (why: RestartWhy | undefined) =>
    // A failed server that is waiting to retry is started, not restarted: nothing it runs is cut.
    why && why !== 'retry' ? t('matrix.appliesByRestarting', { server: server.name, why: t(WHY_KEYS[why]), seconds: Math.round(DRAIN_LIMIT_MS / 1000) }) : undefined;
  const grant = say(server.changeRestarts?.grant);
  const revoke = say(server.changeRestarts?.revoke);
  return grant || revoke ? { grant, revoke } : undefined;
}
