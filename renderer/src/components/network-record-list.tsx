// A server's record of network destinations (a server with a list of allowed hosts): each name it
// looked up and each address it reached or was refused, newest first, with how often. Fetched when
// shown and every few seconds while shown (the host reads its rules' record every second).
import type { ServerId } from '../../../shared/domain.js';
import type { NetworkRecordRow } from '../../../shared/network-record.js';
import { usePolledCall } from '../use-polled-call.js';
import { useI18n } from '../i18n/i18n-context.js';

const REFRESH_MS = 3_000;
const SHOWN = 50;

export function NetworkRecordList({ serverId }: { serverId: ServerId }) {
  const { t, formatTime } = useI18n();
  const rows: NetworkRecordRow[] | undefined = usePolledCall('servers.network', { serverId }, REFRESH_MS, serverId);

  return (
    <section className="network-record" aria-label={t('network.record')}>
      <h4 className="network-record__title">{t('network.record')}</h4>
      {rows === undefined ? null : rows.length === 0 ? (
        <p className="field-hint">{t('network.recordEmpty')}</p>
      ) : (
        <ul className="network-record__list">
          {rows.slice(0, SHOWN).map((row) => (
            <li key={`${row.kind} ${row.target} ${row.verdict}`} className={`network-record__row network-record__row--${row.verdict}`}>
              <span className="network-record__verdict">{row.verdict === 'refused' ? t('network.refused') : t('network.allowed')}</span>
              <span className="network-record__target">
                {row.kind === 'lookup' ? t('network.lookedUp', { name: row.target }) : t('network.connected', { target: row.target })}
                {row.kind === 'connect' && row.names?.length ? ` (${row.names.join(', ')})` : ''}
              </span>
              <span className="network-record__when">
                {formatTime(row.last)}
                {row.count > 1 ? ` ×${row.count}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
