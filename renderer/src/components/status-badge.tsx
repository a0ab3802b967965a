// A server's connection state as a badge: where it is in its life (connection-words.ts).
import type { ConnectionState, LifecycleState } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useLive } from '../use-live.js';
import { Badge, UnknownBadge } from './access-badge.js';
import { connectionWords } from './connection-words.js';

export function StatusBadge({ state, lifecycle, title }: { state: ConnectionState; lifecycle?: LifecycleState | undefined; title?: string | undefined }) {
  const { t } = useI18n();
  if (!useLive()) return <UnknownBadge />;
  const words = connectionWords(state, lifecycle);
  return (
    <Badge tone={words.tone} title={title}>
      {t(words.key)}
    </Badge>
  );
}
