// A call whose transport fails (socket closed mid-call) still ends as a Result the UI can show.
import type { Channel, ChannelInput, ChannelResult } from '../../shared/contract.js';
import type { Result } from '../../shared/result.js';
import type { HostClient } from './host-client.js';

export async function callSafely<C extends Channel>(client: HostClient, channel: C, input: ChannelInput<C>): Promise<Result<ChannelResult<C>>> {
  try {
    return await client.call(channel, input);
  } catch (thrown) {
    return { ok: false, error: { code: 'internal', message: thrown instanceof Error ? thrown.message : String(thrown) } };
  }
}
