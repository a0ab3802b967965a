// A server asked for folders it has not been given. It was answered "none" at once (default deny);
// this banner asks the person what it should see instead.
import { useState } from 'react';
import type { ConsentRequest, ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { useNow } from '../use-now.js';
import { ConsentDialog } from './consent-dialog.js';
import { ShieldIcon } from './icons.js';
import { InlineError } from './inline-error.js';

export function ConsentBanner({ request, server }: { request: ConsentRequest; server: ServerView | undefined }) {
  const { t, formatRelative } = useI18n();
  const now = useNow(10_000);
  const dismiss = useCommand('consent.dismiss');
  const [choosing, setChoosing] = useState(false);
  const name = server?.name ?? t('consent.unknownServer');
  return (
    <div className="banner banner--consent" role="region" aria-label={t('consent.regionLabel', { name })} data-testid="consent-banner">
      <ShieldIcon className="banner__icon" size={20} />
      <div className="banner__body">
        <p className="banner__title">{t('consent.title', { name })}</p>
        <p className="banner__text">
          {t('consent.body')} <span className="muted">{formatRelative(request.at, now)}</span>
        </p>
        <InlineError error={dismiss.error} onDismiss={dismiss.clearError} />
      </div>
      <div className="banner__actions">
        <button type="button" className="button button--primary button--compact" onClick={() => setChoosing(true)} disabled={!server}>
          {t('consent.choose')}
        </button>
        <button type="button" className="button button--compact" onClick={() => void dismiss.run({ requestId: request.id })} disabled={dismiss.pending}>
          {t('consent.dismiss')}
        </button>
      </div>
      {server && <ConsentDialog open={choosing} server={server} onClose={() => setChoosing(false)} />}
    </div>
  );
}
