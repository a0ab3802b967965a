// How a connection's state is named and coloured, in one place for every badge, list and header.
// The lifecycle (shared/domain.ts) names where a running connection is; disabled, error and
// "unknown" (no live host) come from the coarser ConnectionState and win, since they are what the
// person must see first.
import type { ConnectionState, LifecycleState } from '../../../shared/domain.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import type { Tone } from './access-badge.js';

export const connectionLabelKey: Record<ConnectionState, MessageKey> = {
  connected: 'status.connected',
  connecting: 'status.connecting',
  disconnected: 'status.disconnected',
  disabled: 'status.disabled',
  error: 'status.error',
  unknown: 'status.unknown',
};

const connectionTone: Record<ConnectionState, Tone> = {
  connected: 'success',
  connecting: 'info',
  disconnected: 'neutral',
  disabled: 'neutral',
  error: 'danger',
  unknown: 'neutral',
};

export const lifecycleLabelKey: Record<LifecycleState, MessageKey> = {
  connecting: 'lifecycle.connecting',
  ready: 'lifecycle.ready',
  'applying-grants': 'lifecycle.applying-grants',
  draining: 'lifecycle.draining',
  restarting: 'lifecycle.restarting',
  'backing-off': 'lifecycle.backing-off',
  'held-off': 'lifecycle.held-off',
  stopped: 'lifecycle.stopped',
};

export const lifecycleTone: Record<LifecycleState, Tone> = {
  connecting: 'info',
  ready: 'success',
  'applying-grants': 'info',
  draining: 'info',
  restarting: 'info',
  'backing-off': 'neutral',
  'held-off': 'warning',
  stopped: 'neutral',
};

export interface ConnectionWords {
  key: MessageKey;
  tone: Tone;
}

/** The words and colour for a server's state: its lifecycle, unless it is off, failed or unknown. */
export function connectionWords(state: ConnectionState, lifecycle: LifecycleState | undefined): ConnectionWords {
  if (lifecycle && state !== 'disabled' && state !== 'error' && state !== 'unknown') return { key: lifecycleLabelKey[lifecycle], tone: lifecycleTone[lifecycle] };
  return { key: connectionLabelKey[state], tone: connectionTone[state] };
}
