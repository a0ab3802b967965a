// The history across servers: what happened to every server, newest first, narrowed by server,
// folder and kind. Copy puts the rows shown by the filters on the clipboard as text; Export saves
// them as a .txt or .json file (for a bug report, or a script).
import { memo, useId, useMemo, useState } from 'react';
import type { ActivityEntry, ServerId } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { useActivityHistory } from '../use-activity-history.js';
import { useRoots, useServers } from '../use-host-state.js';
import { activityMessage } from '../../../shared/i18n/activity-message.js';
import { ActivityUris } from './activity-uris.js';
import { kindKey } from './activity-timeline.js';
import { HISTORY_KINDS, historyJson, historyRows, historyText, type HistoryKind, type HistoryRow, type RowWords } from './history-items.js';
import { InlineError } from './inline-error.js';

const kindFilterKey: Record<HistoryKind, MessageKey> = {
  all: 'activity.filterAll',
  changes: 'history.filterChanges',
  problems: 'activity.filterProblems',
  folders: 'activity.filterFolders',
  connection: 'activity.filterConnection',
  files: 'history.filterFiles',
  network: 'history.filterNetwork',
};

const SHOWN = 200;

export function HistoryPanel() {
  const { t } = useI18n();
  const { byServer, loading, error } = useActivityHistory();
  const servers = useServers();
  const roots = useRoots();
  const [serverId, setServerId] = useState<ServerId | ''>('');
  const [folder, setFolder] = useState('');
  const [kind, setKind] = useState<HistoryKind>('all');
  const [status, setStatus] = useState<'copied' | 'copy-failed' | 'exported' | undefined>();
  const ids = { server: useId(), folder: useId(), kind: useId() };

  const names = useMemo(() => new Map(servers.map((server) => [server.id, server.name])), [servers]);
  const rows = useMemo(
    () => historyRows(byServer, { serverId: serverId || undefined, folder: folder || undefined, kind }),
    [byServer, serverId, folder, kind],
  );
  const shown = rows.slice(-SHOWN).reverse();
  const words: RowWords = {
    server: (id) => names.get(id) ?? id,
    kind: (entryKind) => t(kindKey[entryKind]),
    message: (entry) => activityMessage(t, entry),
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(historyText(rows, words));
      setStatus('copied');
    } catch {
      setStatus('copy-failed');
    }
  };
  const download = (format: 'txt' | 'json') => {
    const text = format === 'json' ? historyJson(rows, words) : `${historyText(rows, words)}\n`;
    const url = URL.createObjectURL(new Blob([text], { type: format === 'json' ? 'application/json' : 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `mcp-roots-history-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.${format}`;
    link.click();
    // After this turn: the download has taken the URL by then.
    setTimeout(() => URL.revokeObjectURL(url), 0);
    setStatus('exported');
  };

  return (
    <section className="panel history" aria-labelledby="history-title">
      <header className="panel__header">
        <div>
          <h1 id="history-title" className="panel__title">
            {t('history.title')}
          </h1>
          <p className="panel__lead">{t('history.lead')}</p>
        </div>
      </header>
      <div className="history__toolbar">
        <span className="history__pair">
          <label htmlFor={ids.server} className="history__label">
            {t('history.server')}
          </label>
          <select id={ids.server} className="select history__filter" value={serverId} onChange={(event) => setServerId(event.target.value)}>
            <option value="">{t('history.allServers')}</option>
            {servers.map((server) => (
              <option key={server.id} value={server.id}>
                {server.name}
              </option>
            ))}
          </select>
        </span>
        <span className="history__pair">
          <label htmlFor={ids.folder} className="history__label">
            {t('history.folder')}
          </label>
          <select id={ids.folder} className="select history__filter history__filter--folder" value={folder} onChange={(event) => setFolder(event.target.value)}>
            <option value="">{t('history.allFolders')}</option>
            {roots.map((root) => (
              <option key={root.id} value={root.canonicalPath}>
                {root.name} — {root.canonicalPath}
              </option>
            ))}
          </select>
        </span>
        <span className="history__pair">
          <label htmlFor={ids.kind} className="history__label">
            {t('activity.filterLabel')}
          </label>
          <select id={ids.kind} className="select history__filter" value={kind} onChange={(event) => setKind(event.target.value as HistoryKind)}>
            {HISTORY_KINDS.map((value) => (
              <option key={value} value={value}>
                {t(kindFilterKey[value])}
              </option>
            ))}
          </select>
        </span>
        <div className="history__actions">
          <button type="button" className="button button--compact" onClick={() => void copy()} disabled={rows.length === 0}>
            {t('activity.copy')}
          </button>
          <button type="button" className="button button--compact" onClick={() => download('txt')} disabled={rows.length === 0}>
            {t('history.exportText')}
          </button>
          <button type="button" className="button button--compact" onClick={() => download('json')} disabled={rows.length === 0}>
            {t('history.exportJson')}
          </button>
          <span className="muted history__status" role="status">
            {status === 'copied' ? t('activity.copied') : status === 'copy-failed' ? t('activity.copyFailed') : status === 'exported' ? t('history.exported') : ''}
          </span>
        </div>
      </div>
      <InlineError error={error} />
      {loading ? (
        <p className="muted">{t('common.loading')}</p>
      ) : shown.length === 0 ? (
        <p className="muted">{serverId || folder || kind !== 'all' ? t('activity.emptyFiltered') : t('activity.empty')}</p>
      ) : (
        // The rows scroll under the filters, which stay in view; focusable so keys scroll it too.
        <div className="history__scroll" tabIndex={0} role="region" aria-label={t('history.rows')}>
          <ol className="history__list" aria-label={t('history.title')}>
            {shown.map((row) => (
              <HistoryItem key={row.key} row={row} server={words.server(row.serverId)} />
            ))}
          </ol>
          {rows.length > SHOWN && <p className="muted history__more">{t('activity.older', { count: rows.length - SHOWN })}</p>}
        </div>
      )}
    </section>
  );
}

const HistoryItem = memo(function HistoryItem({ row, server }: { row: HistoryRow; server: string }) {
  const { t, formatTime } = useI18n();
  const entry: ActivityEntry = row.entry;
  const repeated = row.count > 1;
  return (
    <li className={`history__entry timeline__entry--${entry.kind}`}>
      <time className="timeline__time" dateTime={new Date(row.lastAt).toISOString()} title={repeated ? t('activity.between', { first: formatTime(row.firstAt), last: formatTime(row.lastAt) }) : undefined}>
        {formatTime(row.lastAt)}
      </time>
      <span className="history__server">{server}</span>
      <span className="timeline__kind">
        {t(kindKey[entry.kind])}
        {repeated && (
          <span className="timeline__count" title={t('activity.repeated', { count: row.count })}>
            ×{row.count}
          </span>
        )}
      </span>
      <span className="timeline__message">
        {entry.kind === 'stderr' ? <span className="history__output">{row.entries.map((line) => line.message).join('\n')}</span> : activityMessage(t, entry)}
        <ActivityUris uris={entry.uris} />
      </span>
    </li>
  );
});
