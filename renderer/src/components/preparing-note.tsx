// An npx or uvx server's first start in the sandbox installs its package before anything runs, which
// can take many seconds: said with the command and the time so far, so "Connecting" is not all a
// person sees (the proxy says the same on stderr).
import type { ServerStatus } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useNow } from '../use-now.js';

export function PreparingNote({ preparing, compact = false }: { preparing: ServerStatus['preparing']; compact?: boolean }) {
  const { t } = useI18n();
  const now = useNow();
  if (!preparing) return null;
  const seconds = Math.max(0, Math.round((now - preparing.since) / 1000));
  return (
    <span className={`preparing-note${compact ? ' preparing-note--compact' : ''}`} role="status" data-testid="preparing" title={preparing.command}>
      {compact ? t('servers.preparingShort', { seconds }) : t('servers.preparing', { command: preparing.command, seconds })}
    </span>
  );
}
