// A server's activity timeline: the host's log fetched once, then live `activity` events appended.
// Events that raced the fetch are merged by sequence number, so nothing shows twice or goes missing.
import { useEffect, useState } from 'react';
import type { ActivityEntry, ServerId } from '../../shared/domain.js';
import type { HostError } from '../../shared/result.js';
import { callSafely } from './call-safely.js';
import { useHost } from './host-context.js';

const LIMIT = 300;

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

function merge(base: readonly ActivityEntry[], extra: readonly ActivityEntry[]): ActivityEntry[] {
  const last = base[base.length - 1]?.seq ?? 0;
  const fresh = extra.filter((entry) => entry.seq > last);
  const merged = fresh.length > 0 ? [...base, ...fresh] : [...base];
  return merged.length > LIMIT ? merged.slice(merged.length - LIMIT) : merged;
}
