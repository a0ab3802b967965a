// The one place host events reach the window (webContents.send). Only a window that shows one of
// our own pages receives them.
import type { WebContents } from 'electron';
import type { EventName, EventPayloads } from '../../shared/contract.js';
import type { RootsHost } from '../host/roots-host.js';
import { eventChannel } from '../preload/ipc-channel-names.js';

export function forwardHostEvents(
  host: Pick<RootsHost, 'on' | 'off'>,
  getContents: () => WebContents | undefined,
  isAppUrl: (url: string) => boolean,
): () => void {
  const send = <E extends EventName>(name: E, payload: EventPayloads[E]): void => {
    const contents = getContents();
    if (!contents || contents.isDestroyed() || !isAppUrl(contents.getURL())) return;
    contents.send(eventChannel(name), payload);
  };
  const onState = (state: EventPayloads['state']): void => send('state', state);
  const onActivity = (activity: EventPayloads['activity']): void => send('activity', activity);
  host.on('state', onState);
  host.on('activity', onActivity);
  return () => {
    host.off('state', onState);
    host.off('activity', onActivity);
  };
}
