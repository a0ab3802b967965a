// The activity of every server at once: the host's logs fetched once, then live `activity` events
// merged per server by sequence number (activity-merge.ts), as a server's own timeline does.
import { useEffect, useMemo, useState } from 'react';
import type { ActivityEntry, ServerActivityEntry, ServerId } from '../../shared/domain.js';
import type { HostError } from '../../shared/result.js';
import { mergeActivity } from './activity-merge.js';
import { callSafely } from './call-safely.js';
import { useHost } from './host-context.js';
import { usePolledCall } from './use-polled-call.js';

export interface ActivityHistory {
  /** Each server's entries, oldest first (sequence numbers are per server). */
  byServer: ReadonlyMap<ServerId, readonly ActivityEntry[]>;
  loading: boolean;
  error: HostError | undefined;
}

function merged(base: ReadonlyMap<ServerId, readonly ActivityEntry[]>, extra: readonly ServerActivityEntry[]): Map<ServerId, readonly ActivityEntry[]> {
  const next = new Map(base);
  const grouped = new Map<ServerId, ActivityEntry[]>();
  for (const { serverId, entry } of extra) grouped.set(serverId, [...(grouped.get(serverId) ?? []), entry]);
  for (const [serverId, entries] of grouped) next.set(serverId, mergeActivity(next.get(serverId) ?? [], entries));
  return next;
}

/** How often History asks again for the servers' records (file operations, network destinations). */
const RECORDS_EVERY_MS = 5_000;
const NO_RECORDS: readonly ServerActivityEntry[] = [];

export function useActivityHistory(): ActivityHistory {
  const { client } = useHost();
  const [history, setHistory] = useState<ActivityHistory>({ byServer: new Map(), loading: true, error: undefined });
  // What each server did, from its records on disk: asked again every few seconds while shown.
  const records: readonly ServerActivityEntry[] = usePolledCall('activity.records', { since: 0 }, RECORDS_EVERY_MS, 'records') ?? NO_RECORDS;

  useEffect(() => {
    let live: ServerActivityEntry[] = [];
    let loaded = false;
    let cancelled = false;
    const off = client.on('activity', (event) => {
      if (!loaded) {
        live.push(event);
        return;
      }
      setHistory((previous) => ({ ...previous, byServer: merged(previous.byServer, [event]) }));
    });
    void callSafely(client, 'activity.history', {}).then((result) => {
      if (cancelled) return;
      loaded = true;
      const fetched = result.ok ? result.value : [];
      setHistory({ byServer: merged(merged(new Map(), fetched), live), loading: false, error: result.ok ? undefined : result.error });
      live = [];
    });
    return () => {
      cancelled = true;
      off();
    };
  }, [client]);

  // The records join each server's log beside it (their sequence numbers lie far above any log's;
  // History orders all by time). Not merged as log entries: those fold repeats and keep a page.
  const byServer = useMemo(() => {
    if (records.length === 0) return history.byServer;
    const next = new Map(history.byServer);
    for (const { serverId, entry } of records) next.set(serverId, [...(next.get(serverId) ?? []), entry]);
    return next;
  }, [history.byServer, records]);
  return useMemo(() => ({ ...history, byServer }), [history, byServer]);
}
