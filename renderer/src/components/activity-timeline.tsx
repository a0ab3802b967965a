// A server's recent activity, newest first: connects, roots requests and their answers, errors and
// the server's own output. Stderr blocks read in the order written, repeats show once with a count,
// a filter narrows it by kind, and Copy puts it on the clipboard as text for a bug report.
import { memo, useId, useMemo, useState } from 'react';
import type { ActivityKind, ServerId } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { useServerActivity } from '../use-server-activity.js';
import { ACTIVITY_FILTERS, activityItems, activityText, type ActivityFilter, type ActivityItem } from './activity-items.js';
import { activityMessage } from '../../../shared/i18n/activity-message.js';
import { ActivityUris } from './activity-uris.js';
import { InlineError } from './inline-error.js';

export const kindKey: Record<ActivityKind, MessageKey> = {
  connect: 'activity.connect',
  disconnect: 'activity.disconnect',
  error: 'activity.error',
  'roots-request': 'activity.rootsRequest',
  'list-changed': 'activity.listChanged',
  stderr: 'activity.stderr',
  consent: 'activity.consent',
  restart: 'activity.restart',
  info: 'activity.info',
  grants: 'activity.grants',
  file: 'activity.file',
  network: 'activity.network',
};

const filterKey: Record<ActivityFilter, MessageKey> = {
  all: 'activity.filterAll',
  problems: 'activity.filterProblems',
  folders: 'activity.filterFolders',
  connection: 'activity.filterConnection',
};

const SHOWN = 100;

export function ActivityTimeline({ serverId }: { serverId: ServerId }) {
  const { t } = useI18n();
  const { entries, loading, error } = useServerActivity(serverId);
  const [filter, setFilter] = useState<ActivityFilter>('all');
  const [copied, setCopied] = useState<'done' | 'failed' | undefined>();
  const filterId = useId();
  const items = useMemo(() => activityItems(entries, filter), [entries, filter]);
  const shown = items.slice(-SHOWN).reverse();

  const copy = async () => {
    const text = activityText(items, (kind) => t(kindKey[kind]), (at) => new Date(at).toISOString());
    try {
      await navigator.clipboard.writeText(text);
      setCopied('done');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <section className="timeline" aria-labelledby="timeline-title">
      <div className="timeline__head">
        <h2 id="timeline-title" className="section-title">
          {t('activity.title')}
        </h2>
        <label htmlFor={filterId} className="timeline__filterlabel">
          {t('activity.filterLabel')}
        </label>
        <select id={filterId} className="select timeline__filter" value={filter} onChange={(event) => setFilter(event.target.value as ActivityFilter)}>
          {ACTIVITY_FILTERS.map((value) => (
            <option key={value} value={value}>
              {t(filterKey[value])}
            </option>
          ))}
        </select>
        <button type="button" className="button button--compact" onClick={() => void copy()} disabled={items.length === 0}>
          {t('activity.copy')}
        </button>
        <span className="muted timeline__copied" role="status">
          {copied === 'done' ? t('activity.copied') : copied === 'failed' ? t('activity.copyFailed') : ''}
        </span>
      </div>
      <InlineError error={error} />
      {loading ? (
        <p className="muted">{t('common.loading')}</p>
      ) : shown.length === 0 ? (
        <p className="muted">{filter === 'all' ? t('activity.empty') : t('activity.emptyFiltered')}</p>
      ) : (
        <ol className="timeline__list" aria-label={t('activity.title')}>
          {shown.map((item) => (
            <TimelineItem key={item.key} item={item} label={t(kindKey[item.kind])} />
          ))}
        </ol>
      )}
      {items.length > SHOWN && <p className="muted timeline__more">{t('activity.older', { count: items.length - SHOWN })}</p>}
    </section>
  );
}

const TimelineItem = memo(function TimelineItem({ item, label }: { item: ActivityItem; label: string }) {
  const { t, formatTime } = useI18n();
  const first = item.entries[0]!;
  const repeated = item.count > 1;
  return (
    <li className={`timeline__entry timeline__entry--${item.kind}`}>
      <time className="timeline__time" dateTime={new Date(item.lastAt).toISOString()} title={repeated ? t('activity.between', { first: formatTime(item.firstAt), last: formatTime(item.lastAt) }) : undefined}>
        {formatTime(item.lastAt)}
      </time>
      <span className="timeline__kind">
        {label}
        {repeated && (
          <span className="timeline__count" title={t('activity.repeated', { count: item.count })}>
            ×{item.count}
          </span>
        )}
      </span>
      <span className="timeline__message">
        {item.kind === 'stderr' ? (
          <pre className="timeline__lines">{item.entries.map((entry) => entry.message).join('\n')}</pre>
        ) : (
          activityMessage(t, first)
        )}
        <ActivityUris uris={first.uris} />
      </span>
    </li>
  );
});
