// Optimistic matrix cells: a clicked cell shows its new state at once and keeps showing it until
// the host's next state agrees (the call's answer and the state push arrive separately), so a
// cell never flickers back. A failed call drops the mark and the cell shows the truth again.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { GrantMode, RootId, ServerId } from '../../shared/domain.js';
import type { GrantIndex } from './grant-index.js';

export interface PendingGrant {
  rootId: RootId;
  serverId: ServerId;
  granted: boolean;
  /** A change of mode (or a grant with one): the cell shows it until the state agrees. */
  mode?: GrantMode | undefined;
  /** Set when the host accepted the change; the mark stays until the state shows it. */
  acceptedAt?: number;
}

export type PendingGrants = ReadonlyMap<string, PendingGrant>;

/** After this, an accepted mark is dropped even if the state disagrees (someone else changed it). */
const SETTLE_LIMIT_MS = 3000;

export const grantKey = (rootId: RootId, serverId: ServerId) => `${rootId}\u0000${serverId}`;

export function usePendingGrants(grants: GrantIndex) {
  const [pending, setPending] = useState<PendingGrants>(new Map());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  const update = useCallback((change: (next: Map<string, PendingGrant>) => void) => {
    setPending((previous) => {
      const next = new Map(previous);
      change(next);
      return next;
    });
  }, []);

  const begin = useCallback(
    (rootId: RootId, serverId: ServerId, granted: boolean, mode?: GrantMode) =>
      update((next) => void next.set(grantKey(rootId, serverId), { rootId, serverId, granted, mode })),
    [update],
  );

  const finish = useCallback(
    (rootId: RootId, serverId: ServerId, accepted: boolean) => {
      const key = grantKey(rootId, serverId);
      update((next) => {
        const mark = next.get(key);
        if (!mark) return;
        if (accepted) next.set(key, { ...mark, acceptedAt: Date.now() });
        else next.delete(key);
      });
      if (accepted) {
        const timer = setTimeout(() => {
          timers.current.delete(timer);
          update((next) => {
            const mark = next.get(key);
            if (mark?.acceptedAt !== undefined && Date.now() - mark.acceptedAt >= SETTLE_LIMIT_MS) next.delete(key);
          });
        }, SETTLE_LIMIT_MS);
        timers.current.add(timer);
      }
    },
    [update],
  );

  // Drop accepted marks as soon as the host's state shows the same thing.
  useEffect(() => {
    if (pending.size === 0) return;
    const settled = [...pending].filter(
      ([, mark]) =>
        mark.acceptedAt !== undefined &&
        grants.isGranted(mark.serverId, mark.rootId) === mark.granted &&
        (mark.mode === undefined || grants.isReadOnly(mark.serverId, mark.rootId) === (mark.mode === 'read-only')),
    );
    if (settled.length > 0) update((next) => settled.forEach(([key]) => next.delete(key)));
  }, [grants, pending, update]);

  useEffect(() => {
    const live = timers.current;
    return () => live.forEach(clearTimeout);
  }, []);

  return { pending, begin, finish };
}
