// Runs one host command for one control and keeps its outcome there: the pending flag disables the
// control, and the error is rendered next to it (never swallowed, never a global toast).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Channel, ChannelInput, ChannelResult } from '../../shared/contract.js';
import type { HostError, Result } from '../../shared/result.js';
import { callSafely } from './call-safely.js';
import { useHost } from './host-context.js';

export interface Command<C extends Channel> {
  run(input: ChannelInput<C>): Promise<Result<ChannelResult<C>>>;
  pending: boolean;
  error: HostError | undefined;
  clearError(): void;
}

export function useCommand<C extends Channel>(channel: C): Command<C> {
  const { client } = useHost();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<HostError | undefined>();
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    async (input: ChannelInput<C>): Promise<Result<ChannelResult<C>>> => {
      setPending(true);
      setError(undefined);
      const result = await callSafely(client, channel, input);
      if (mounted.current) {
        setPending(false);
        if (!result.ok) setError(result.error);
      }
      return result;
    },
    [client, channel],
  );

  const clearError = useCallback(() => setError(undefined), []);
  return { run, pending, error, clearError };
}
