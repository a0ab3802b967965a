// A host call asked when shown and again every few seconds while shown: for what the host reads
// from disk and sends no event for (a server's records: its network destinations, its changes).
// The last answer stands until the next one; a failed ask keeps it. Asked only while the host is
// there: with the connection lost (serve stopped) a poll would only fail, and the browser log each.
import { useEffect, useState } from 'react';
import type { Channel, ChannelInput, ChannelResult } from '../../shared/contract.js';
import { callSafely } from './call-safely.js';
import { useHost } from './host-context.js';
import { useHostSelectorConnection } from './use-host-state.js';

/** `key` says when the input changed (the effect asks again at once); the input itself may be a new object each render. */
export function usePolledCall<C extends Channel>(channel: C, input: ChannelInput<C>, everyMs: number, key: string): ChannelResult<C> | undefined {
  const { client } = useHost();
  const connection = useHostSelectorConnection();
  const [value, setValue] = useState<ChannelResult<C> | undefined>(undefined);
  useEffect(() => {
    if (connection !== 'open') return;
    let cancelled = false;
    const load = () =>
      void callSafely(client, channel, input).then((result) => {
        if (!cancelled && result.ok) setValue(result.value);
      });
    load();
    const timer = setInterval(load, everyMs);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
    // The input is named by `key`: a new object of the same input must not restart the polling.
  }, [client, channel, everyMs, key, connection]);
  return value;
}
