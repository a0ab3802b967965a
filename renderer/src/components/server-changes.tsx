// "Changes by this server" (issue #29): the files it created, changed or deleted in its grants since
// a point the person picks, grouped by folder, and what its sandbox refused with the rule, as its
// file view recorded them. Where the server has no file view (bind mounts), there is no record, and
// the section says so instead of showing an empty list. Copy puts the list on the clipboard; in the
// desktop app each folder opens in the file manager (the browser shell cannot open one: there the
// folder's full path is its heading, to select and copy, and no button promises what it cannot do).
import { useId, useState } from 'react';
import type { ServerView } from '../../../shared/domain.js';
import type { FileDiff, NetChange, ServerChanges } from '../../../shared/file-record.js';
import { ConfigDiff } from './config-diff.js';
import { recordBounds } from '../../../shared/file-record.js';
import { callSafely } from '../call-safely.js';
import { desktopExtras } from '../desktop-extras.js';
import { useHost } from '../host-context.js';
import { useI18n } from '../i18n/i18n-context.js';
import { usePolledCall } from '../use-polled-call.js';
import { useSettings } from '../use-host-state.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { RecordBounds } from './record-bounds.js';

type Since = 'started' | 'hour' | 'day' | 'looked' | 'all';
/** Changes drawn at once: a server that made 10,000 files still paints at once; Copy list has them all. */
const SHOWN = 500;
const REFRESH_MS = 3_000;
const seenKey = (serverId: string) => `mcp-roots.changes-seen.${serverId}`;

const changeKey: Record<NetChange['change'], MessageKey> = { created: 'changes.created', modified: 'changes.modified', deleted: 'changes.deleted' };

function sinceMs(since: Since, seen: number, startedAt: number | undefined): number {
  const now = Date.now();
  if (since === 'started') return startedAt ?? 0;
  if (since === 'hour') return now - 3_600_000;
  if (since === 'day') return new Date(new Date().toDateString()).getTime();
  if (since === 'looked') return seen;
  return 0;
}

/** The changes by folder (the folder of each path), folders and their entries in path order. */
function byFolder(changes: readonly NetChange[]): [string, NetChange[]][] {
  const groups = new Map<string, NetChange[]>();
  for (const change of [...changes].sort((a, b) => a.path.localeCompare(b.path))) {
    const folder = change.path.slice(0, change.path.lastIndexOf('/')) || '/';
    groups.set(folder, [...(groups.get(folder) ?? []), change]);
  }
  return [...groups];
}

/** One changed path; a file's row opens its diff (its content before the server's first change against now). */
function ChangeRow({ serverId, change, name }: { serverId: string; change: NetChange; name: string }) {
  const { t, formatTime } = useI18n();
  const { client } = useHost();
  const [diff, setDiff] = useState<FileDiff | undefined>(undefined);
  const [open, setOpen] = useState(false);
  const toggle = () => {
    const next = !open;
    setOpen(next);
    if (next) void callSafely(client, 'servers.diff', { serverId, file: change.path }).then((result) => setDiff(result.ok ? result.value : { file: change.path, note: 'gone' }));
  };
  return (
    <li className={`changes__row changes__row--${change.change}`}>
      <span className="changes__badge">{t(changeKey[change.change])}</span>
      <span className="changes__name">
        {name}
        {change.kind === 'folder' ? '/' : ''}
        {change.from && <span className="muted"> {t('changes.from', { path: change.from })}</span>}
      </span>
      <span className="changes__end">
        {change.kind === 'file' && (
          <button type="button" className="button button--compact button--ghost" aria-expanded={open} onClick={toggle}>
            {open ? t('changes.hideDiff') : t('changes.showDiff')}
          </button>
        )}
        <time className="changes__time" dateTime={new Date(change.last).toISOString()}>
          {formatTime(change.last)}
        </time>
      </span>
      {open && (
        <div className="changes__diff">
          {diff === undefined ? (
            <p className="muted">{t('common.loading')}</p>
          ) : diff.lines ? (
            <ConfigDiff lines={diff.lines} label={t('changes.diffLabel', { path: change.path })} />
          ) : (
            <p className="muted">{t(noteKey[diff.note ?? 'gone'])}</p>
          )}
        </div>
      )}
    </li>
  );
}

const noteKey: Record<NonNullable<FileDiff['note']>, MessageKey> = {
  'no-copy': 'changes.noCopy',
  binary: 'changes.binary',
  'too-large': 'changes.tooLarge',
  gone: 'changes.gone',
  unchanged: 'changes.unchanged',
  'not-recorded': 'changes.gone',
};

/** A folder's heading: its full path, and in the desktop app a button that opens it in the file manager. */
function FolderHeading({ folder }: { folder: string }) {
  const { t } = useI18n();
  const desktop = desktopExtras();
  const [failed, setFailed] = useState<string | undefined>();
  const open = () => {
    setFailed(undefined);
    desktop.openFolder?.(folder).catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)));
  };
  return (
    <div className="changes__folderhead">
      <h3 className="changes__folder">{folder}</h3>
      {desktop.openFolder && (
        <button type="button" className="button button--compact button--ghost" onClick={open} aria-label={t('changes.openFolderNamed', { path: folder })}>
          {t('changes.openFolder')}
        </button>
      )}
      {failed && (
        <p className="field-error" role="alert">
          {failed}
        </p>
      )}
    </div>
  );
}

export function ServerChangesPanel({ server }: { server: ServerView }) {
  const { t, formatTime } = useI18n();
  const settings = useSettings();
  const startedAt = server.status.startedAt;
  const selectId = useId();
  const [seen, setSeen] = useState(() => Number(localStorage.getItem(seenKey(server.id)) ?? 0));
  const [since, setSince] = useState<Since>(() => (seen > 0 ? 'looked' : 'all'));

  const [copied, setCopied] = useState<'done' | 'failed' | undefined>();
  const withoutView = server.status.confinement?.grants === 'mounts';

  const data: ServerChanges | undefined = usePolledCall('servers.changes', { serverId: server.id, since: sinceMs(since, seen, startedAt) }, REFRESH_MS, `${server.id} ${since} ${seen} ${startedAt ?? ''}`);

  const markSeen = () => {
    const now = Date.now();
    localStorage.setItem(seenKey(server.id), String(now));
    setSeen(now);
    setSince('looked');
  };
  const copy = async () => {
    const text = (data?.changes ?? []).map((change) => `${change.change}\t${change.path}${change.from ? `\t(from ${change.from})` : ''}`).join('\n');
    try {
      await navigator.clipboard.writeText(text);
      setCopied('done');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <section className="changes" aria-labelledby={`${selectId}-title`}>
      <div className="timeline__head">
        <h2 id={`${selectId}-title`} className="section-title">
          {t('changes.title')}
        </h2>
        <label htmlFor={selectId} className="timeline__filterlabel">
          {t('changes.since')}
        </label>
        <select id={selectId} className="select timeline__filter" value={since} onChange={(event) => setSince(event.target.value as Since)}>
          <option value="looked" disabled={seen === 0}>
            {seen ? t('changes.sinceLooked', { time: formatTime(seen) }) : t('changes.sinceLookedNever')}
          </option>
          <option value="started" disabled={startedAt === undefined}>
            {startedAt === undefined ? t('changes.sinceStartedNever') : t('changes.sinceStarted', { time: formatTime(startedAt) })}
          </option>
          <option value="hour">{t('changes.sinceHour')}</option>
          <option value="day">{t('changes.sinceDay')}</option>
          <option value="all">{t('changes.sinceAll', { days: recordBounds(settings).days })}</option>
        </select>
        <button type="button" className="button button--compact" onClick={() => void copy()} disabled={!data?.changes.length}>
          {t('changes.copy')}
        </button>
        <button type="button" className="button button--compact button--ghost" onClick={markSeen}>
          {t('changes.markSeen')}
        </button>
        <span className="muted timeline__copied" role="status">
          {copied === 'done' ? t('activity.copied') : copied === 'failed' ? t('activity.copyFailed') : ''}
        </span>
      </div>
      {withoutView ? (
        <p className="muted">{t('changes.noView')}</p>
      ) : data === undefined ? (
        <p className="muted">{t('common.loading')}</p>
      ) : (
        <>
          {data.changes.length === 0 ? (
            <p className="muted">{t('changes.none')}</p>
          ) : (
            <div className="changes__groups">
              {byFolder(data.changes.slice(-SHOWN)).map(([folder, changes]) => (
                <div key={folder} className="changes__group">
                  <FolderHeading folder={folder} />
                  <ul className="changes__list" aria-label={folder}>
                    {changes.map((change) => (
                      <ChangeRow key={change.path} serverId={server.id} change={change} name={change.path.slice(folder.length + 1)} />
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          )}
          {data.changes.length > SHOWN && <p className="muted">{t('changes.more', { count: data.changes.length - SHOWN })}</p>}
          {data.refused.length > 0 && (
            <details className="changes__refused">
              <summary>{t('changes.refused', { count: data.refused.length })}</summary>
              <ul className="changes__list">
                {data.refused.map((entry, index) => (
                  <li key={`${entry.time}-${index}`} className="changes__row">
                    <span className="changes__badge changes__badge--refused">{entry.op}</span>
                    <span className="changes__name">{entry.path}</span>
                    <span className="muted">{entry.rule}</span>
                  </li>
                ))}
              </ul>
            </details>
          )}
          {(data.filesRead > 0 || data.dropped > 0) && (
            <p className="field-hint">
              {data.filesRead > 0 ? t('changes.read', { count: data.filesRead }) : ''} {data.dropped > 0 ? t('changes.dropped', { count: data.dropped }) : ''}
            </p>
          )}
          <RecordBounds settings={settings} />
        </>
      )}
    </section>
  );
}
