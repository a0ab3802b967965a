// A server's recent activity, newest first: connects, roots requests and their answers, errors.
import { memo } from 'react';
import type { ActivityEntry, ActivityKind, ServerId } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages.js';
import { useServerActivity } from '../use-server-activity.js';
import { InlineError } from './inline-error.js';

const kindKey: Record<ActivityKind, MessageKey> = {
  connect: 'activity.connect',
  disconnect: 'activity.disconnect',
  error: 'activity.error',
  'roots-request': 'activity.rootsRequest',
  'list-changed': 'activity.listChanged',
  stderr: 'activity.stderr',
  consent: 'activity.consent',
  restart: 'activity.restart',
  info: 'activity.info',
};

const SHOWN = 100;

export function ActivityTimeline({ serverId }: { serverId: ServerId }) {
  const { t } = useI18n();
  const { entries, loading, error } = useServerActivity(serverId);
  const shown = entries.slice(-SHOWN).reverse();
  return (
    <section className="timeline" aria-labelledby="timeline-title">
      <h2 id="timeline-title" className="section-title">
        {t('activity.title')}
      </h2>
      <InlineError error={error} />
      {loading ? (
        <p className="muted">{t('common.loading')}</p>
      ) : shown.length === 0 ? (
        <p className="muted">{t('activity.empty')}</p>
      ) : (
        <ol className="timeline__list" aria-label={t('activity.title')}>
          {shown.map((entry) => (
            <TimelineEntry key={entry.seq} entry={entry} label={t(kindKey[entry.kind])} />
          ))}
        </ol>
      )}
      {entries.length > SHOWN && <p className="muted timeline__more">{t('activity.older', { count: entries.length - SHOWN })}</p>}
    </section>
  );
}

const TimelineEntry = memo(function TimelineEntry({ entry, label }: { entry: ActivityEntry; label: string }) {
  const { formatTime } = useI18n();
  return (
    <li className={`timeline__entry timeline__entry--${entry.kind}`}>
      <time className="timeline__time" dateTime={new Date(entry.at).toISOString()}>
        {formatTime(entry.at)}
      </time>
      <span className="timeline__kind">{label}</span>
      <span className="timeline__message">
        {entry.message}
        {entry.uris && entry.uris.length > 0 && (
          <span className="timeline__uris">
            {entry.uris.map((uri) => (
              <span className="mono" key={uri}>
                {uri}
              </span>
            ))}
          </span>
        )}
      </span>
    </li>
  );
});
