// Servers that asked for folders they have not been given. Each was answered "none" at once
// (default deny); this asks the person what each should see. One summary however many asked, so
// eight requests never push the screen away: a single request shows its actions at once, several
// are listed (collapsed beyond two) under "N servers asked for folders".
import { useId, useState, type ReactNode } from 'react';
import type { ConsentRequest, ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { useNow } from '../use-now.js';
import { useShortWindow } from '../use-short-window.js';
import { ConsentDialog } from './consent-dialog.js';
import { ShieldIcon } from './icons.js';
import { InlineError } from './inline-error.js';

/** More requests than this start collapsed. */
const SHOWN_OPEN = 2;
const NAMED = 3;

export function ConsentSummary({ requests, serversById }: { requests: ConsentRequest[]; serversById: ReadonlyMap<string, ServerView> }) {
  const { t } = useI18n();
  const [expanded, setExpanded] = useState(false);
  // A short window folds a lone request to one line (its title and answers); More shows the rest.
  const [more, setMore] = useState(false);
  const listId = useId();
  // A short window starts even two requests folded: one line, and Review opens them.
  const short = useShortWindow();
  if (requests.length === 0) return null;
  const name = (request: ConsentRequest) => serversById.get(request.serverId)?.name ?? t('consent.unknownServer');
  const single = requests.length === 1 ? requests[0] : undefined;
  const shownOpen = short ? 0 : SHOWN_OPEN;
  const open = requests.length <= shownOpen || expanded;

  const names = requests.slice(0, NAMED).map(name).join(', ');
  if (single) {
    // One request: its actions beside its words, one compact banner.
    return (
      <section className={`banner banner--consent consent-summary${more ? '' : ' consent-summary--folded'}`} aria-label={t('consent.summaryLabel')} data-testid="consent-summary">
        <ShieldIcon className="banner__icon" size={20} />
        <div className="banner__body">
          <ConsentItem
            request={single}
            server={serversById.get(single.serverId)}
            fold={
              <button type="button" className="button button--ghost button--compact consent-summary__more" aria-expanded={more} onClick={() => setMore(!more)}>
                {more ? t('consent.less') : t('consent.more')}
              </button>
            }
            headline={
              <>
                <p className="banner__title">{t('consent.title', { name: name(single) })}</p>
                <p className="banner__text">{t('consent.body')}</p>
              </>
            }
          />
        </div>
      </section>
    );
  }
  return (
    <section className="banner banner--consent consent-summary" aria-label={t('consent.summaryLabel')} data-testid="consent-summary">
      <ShieldIcon className="banner__icon" size={20} />
      <div className="banner__body">
        <div className="consent-summary__top">
          <div className="consent-summary__headline">
            <p className="banner__title">{t('consent.summaryMany', { count: requests.length })}</p>
            <p className="banner__text">
              <span className="consent-summary__why">{t('consent.summaryBody')}</span>
              {!open && <span className="consent-summary__names"> {requests.length > NAMED ? t('consent.names', { names, count: requests.length - NAMED }) : names}</span>}
            </p>
          </div>
          {requests.length > shownOpen && (
            <button type="button" className="button button--compact" aria-expanded={expanded} aria-controls={listId} onClick={() => setExpanded(!expanded)}>
              {expanded ? t('consent.hideList') : t('consent.review')}
            </button>
          )}
        </div>
        {open && (
          <ul id={listId} className="consent-summary__list">
            {requests.map((request) => (
              <li key={request.id} className="consent-item">
                <ConsentItem request={request} server={serversById.get(request.serverId)} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/**
 * One server's request and its answers. `headline`: the words of a lone request, in place of the
 * name; `fold`: its More/Less button, shown only where a short window folds it to one line.
 */
function ConsentItem({ request, server, headline, fold }: { request: ConsentRequest; server: ServerView | undefined; headline?: ReactNode; fold?: ReactNode }) {
  const { t, formatRelative } = useI18n();
  const now = useNow(10_000);
  const dismiss = useCommand('consent.dismiss');
  const quiet = useCommand('servers.update');
  const sharingOff = useCommand('servers.setSharing');
  const [choosing, setChoosing] = useState(false);
  const name = server?.name ?? t('consent.unknownServer');
  const error = dismiss.error ?? quiet.error ?? sharingOff.error;
  const busy = dismiss.pending || quiet.pending || sharingOff.pending;
  return (
    <div className="consent-item__group" role="group" aria-label={t('consent.regionLabel', { name })}>
      <div className="consent-item__main">
        {headline ? (
          <div className="consent-summary__headline">{headline}</div>
        ) : (
          <>
            <span className="consent-item__name">{name}</span>
            <span className="muted consent-item__when">{t('consent.askedAt', { when: formatRelative(request.at, now) })}</span>
          </>
        )}
        <span className="consent-item__actions">
          <button type="button" className="button button--primary button--compact" onClick={() => setChoosing(true)} disabled={!server} aria-haspopup="dialog">
            {t('consent.choose')}
          </button>
          <button type="button" className="button button--compact" onClick={() => void dismiss.run({ requestId: request.id })} disabled={busy}>
            {t('consent.dismiss')}
          </button>
          {fold}
        </span>
      </div>
      {server && (
        <p className="consent-item__quiet">
          <span className="muted">{t('consent.noFiles')}</span>
          <button type="button" className="link-button" onClick={() => void sharingOff.run({ serverId: server.id, sharing: false })} disabled={busy}>
            {t('consent.sharingOff')}
          </button>
          <span aria-hidden="true" className="muted">
            ·
          </span>
          <button type="button" className="link-button" onClick={() => void quiet.run({ serverId: server.id, patch: { askForFolders: false } })} disabled={busy}>
            {t('consent.dontAsk')}
          </button>
        </p>
      )}
      <InlineError
        error={error}
        onDismiss={() => {
          dismiss.clearError();
          quiet.clearError();
          sharingOff.clearError();
        }}
      />
      {server && <ConsentDialog open={choosing} server={server} onClose={() => setChoosing(false)} />}
    </div>
  );
}
