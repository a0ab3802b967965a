// A server's activity timeline: the host's log fetched once, then live `activity` events appended.
// Events that raced the fetch are merged by sequence number, so nothing shows twice or goes missing,
// and the host's folds replace the entry they fold into (activity-merge.ts).
import { useEffect, useState } from 'react';
import type { ActivityEntry, ServerId } from '../../shared/domain.js';
import type { HostError } from '../../shared/result.js';
import { mergeActivity as merge } from './activity-merge.js';
import { callSafely } from './call-safely.js';
import { useHost } from './host-context.js';

export interface ServerActivity {
  entries: ActivityEntry[];
  loading: boolean;
  error: HostError | undefined;
}

export function useServerActivity(serverId: ServerId): ServerActivity {
  const { client } = useHost();
  const [activity, setActivity] = useState<ServerActivity>({ entries: [], loading: true, error: undefined });

  useEffect(() => {
    let live: ActivityEntry[] = [];
    let loaded = false;
    let cancelled = false;
    setActivity({ entries: [], loading: true, error: undefined });
    const off = client.on('activity', ({ serverId: from, entry }) => {
      if (from !== serverId) return;
      if (!loaded) {
        live.push(entry);
        return;
      }
      setActivity((previous) => ({ ...previous, entries: merge(previous.entries, [entry]) }));
    });
    void callSafely(client, 'servers.activity', { serverId }).then((result) => {
      if (cancelled) return;
      loaded = true;
      if (!result.ok) {
        setActivity({ entries: live, loading: false, error: result.error });
      } else {
        setActivity({ entries: merge(result.value, live), loading: false, error: undefined });
      }
      live = [];
    });
    return () => {
      cancelled = true;
      off();
    };
  }, [client, serverId]);

  return activity;
}
