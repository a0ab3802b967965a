// A server's connection state as a badge.
import type { ConnectionState } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages.js';
import { useLive } from '../use-live.js';
import { Badge, UnknownBadge, type Tone } from './access-badge.js';

const tone: Record<ConnectionState, Tone> = {
  connected: 'success',
  connecting: 'info',
  disconnected: 'neutral',
  disabled: 'neutral',
  error: 'danger',
  unknown: 'neutral',
};

export const connectionLabelKey: Record<ConnectionState, MessageKey> = {
  connected: 'status.connected',
  connecting: 'status.connecting',
  disconnected: 'status.disconnected',
  disabled: 'status.disabled',
  error: 'status.error',
  unknown: 'status.unknown',
};

export function StatusBadge({ state, title }: { state: ConnectionState; title?: string | undefined }) {
  const { t } = useI18n();
  if (!useLive()) return <UnknownBadge />;
  return (
    <Badge tone={tone[state]} title={title}>
      {t(connectionLabelKey[state])}
    </Badge>
  );
}
