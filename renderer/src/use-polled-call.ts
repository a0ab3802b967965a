// A host call asked when shown and again every few seconds while shown: for what the host reads
// from disk and sends no event for (a server's records: its network destinations, its changes).
// The last answer stands until the next one; a failed ask keeps it.
import { useEffect, useState } from 'react';
import type { Channel, ChannelInput, ChannelResult } from '../../shared/contract.js';
import { callSafely } from './call-safely.js';
import { useHost } from './host-context.js';

/** `key` says when the input changed (the effect asks again at once); the input itself may be a new object each render. */
export function usePolledCall<C extends Channel>(channel: C, input: ChannelInput<C>, everyMs: number, key: string): ChannelResult<C> | undefined {
  const { client } = useHost();
  const [value, setValue] = useState<ChannelResult<C> | undefined>(undefined);
  useEffect(() => {
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
  }, [client, channel, everyMs, key]);
  return value;
}
