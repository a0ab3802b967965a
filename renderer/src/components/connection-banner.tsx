// Browser shell only: while the socket to the host is down, the state on screen may be stale and
// commands will fail. Say so instead of letting the page look live.
import { useI18n } from '../i18n/i18n-context.js';
import { useHostSnapshot } from '../use-host-state.js';

export function ConnectionBanner() {
  const { t } = useI18n();
  const { connection, state } = useHostSnapshot();
  if (connection === 'open' || (connection === 'connecting' && !state)) return null;
  return (
    <div className="banner banner--warning" role="status">
      <span className="spinner" aria-hidden="true" />
      <p className="banner__text">{connection === 'closed' ? t('connection.closed') : t('connection.reconnecting')}</p>
    </div>
  );
}
