// The shape of `window.rootsManager`, derived from the contract so the preload that builds it and
// the renderer that uses it cannot drift: channel 'roots.add' becomes `rootsManager.roots.add(input)`,
// event 'state' becomes `rootsManager.on.state(listener) => unsubscribe`. Type-only imports keep
// zod out of the renderer bundle.
import type { Channel, ChannelInput, ChannelResult, EventName, EventPayloads } from './contract.js';
import type { Result } from './result.js';

/** The part of a channel name before the dot: 'roots', 'servers', … */
export type ChannelGroup = Channel extends `${infer G}.${string}` ? G : never;

export type GroupApi<G extends ChannelGroup> = {
  readonly [C in Channel as C extends `${G}.${infer M}` ? M : never]: (input: ChannelInput<C>) => Promise<Result<ChannelResult<C>>>;
};

export type EventsApi = {
  readonly [E in EventName]: (listener: (payload: EventPayloads[E]) => void) => () => void;
};

export type PreloadApi = { readonly [G in ChannelGroup]: GroupApi<G> } & { readonly on: EventsApi };

// A channel group named 'on' would collide with the events namespace: fail the build, not the app.
type AssertNoOnGroup<T extends Exclude<ChannelGroup, 'on'>> = T;
export type CheckedGroups = AssertNoOnGroup<ChannelGroup>;

/** 'servers.setSharing' -> ['servers', 'setSharing']. */
export function splitChannel(channel: Channel): [group: ChannelGroup, method: string] {
  const dot = channel.indexOf('.');
  return [channel.slice(0, dot) as ChannelGroup, channel.slice(dot + 1)];
}

/**
 * Builds the named API from two generic functions (for the preload: ipcRenderer.invoke and
 * ipcRenderer.on wrappers). The channel and event lists are passed in so this file stays type-only
 * towards the contract.
 */
export function buildPreloadApi(
  channelList: readonly Channel[],
  events: readonly EventName[],
  invoke: (channel: Channel, input: unknown) => Promise<Result<unknown>>,
  subscribe: (event: EventName, listener: (payload: unknown) => void) => () => void,
): PreloadApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const channel of channelList) {
    const [group, method] = splitChannel(channel);
    if (group === ('on' as string)) throw new Error(`Channel group "on" is reserved for events: ${channel}`);
    const target = (api[group] ??= {});
    target[method] = (input: unknown) => invoke(channel, input);
  }
  const on: Record<string, unknown> = {};
  for (const event of events) on[event] = (listener: (payload: unknown) => void) => subscribe(event, listener);
  api.on = on;
  return api as unknown as PreloadApi;
}
