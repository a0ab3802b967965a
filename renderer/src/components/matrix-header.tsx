// The matrix's two sticky header rows: one column per server (select + name + state + how it runs:
// enforced, advisory, off), then each server's sharing switch. Every control is a cell of the
// grid's arrow-key navigation.
import { memo } from 'react';
import type { ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { Switch } from './switch.js';
import { cellKey, type CellPosition } from './matrix-navigation.js';
import { ConfinementTag } from './confinement-badge.js';
import { connectionWords } from './connection-words.js';
import { restartForecast } from './restart-forecast.js';
import { useLive } from '../use-live.js';

export interface MatrixHeaderProps {
  servers: ServerView[];
  selectedServers: ReadonlySet<string>;
  allRootsSelected: boolean | 'mixed';
  rootCount: number;
  active: CellPosition;
  pendingSharing: ReadonlySet<string>;
  onSelectServer(serverId: string, selected: boolean): void;
  onSelectAllRoots(selected: boolean): void;
  onSharing(server: ServerView, sharing: boolean): void;
}

export const MatrixHeader = memo(function MatrixHeader({
  servers,
  selectedServers,
  allRootsSelected,
  rootCount,
  active,
  pendingSharing,
  onSelectServer,
  onSelectAllRoots,
  onSharing,
}: MatrixHeaderProps) {
  const { t } = useI18n();
  const live = useLive();
  const tab = (row: number, col: number) => (active.row === row && active.col === col ? 0 : -1);
  return (
    <div role="rowgroup" className="matrix__head">
      <div role="row" aria-rowindex={1} className="matrix__row matrix__row--names">
        <div role="columnheader" className="matrix__corner">
          <label className="matrix__selectall">
            <input
              type="checkbox"
              className="select-mark"
              checked={allRootsSelected === true}
              ref={(element) => {
                if (element) element.indeterminate = allRootsSelected === 'mixed';
              }}
              aria-label={t('matrix.selectAllRoots', { count: rootCount })}
              tabIndex={tab(0, 0)}
              data-cell={cellKey({ row: 0, col: 0 })}
              onChange={(event) => onSelectAllRoots(event.target.checked)}
            />
            <span aria-hidden="true">{t('matrix.corner')}</span>
          </label>
        </div>
        {servers.map((server, index) => {
          const words = connectionWords(server.status.state, server.status.lifecycle);
          const restarts = live ? restartForecast(t, server) : undefined;
          return (
          <div role="columnheader" className={`matrix__colhead${selectedServers.has(server.id) ? ' matrix__colhead--selected' : ''}`} key={server.id}>
            {/* The column's select mark sits with the server's name, apart from its state: it picks
                the column for a bulk change, it grants nothing. */}
            <span className="matrix__colname">
              <input
                type="checkbox"
                className="select-mark"
                checked={selectedServers.has(server.id)}
                aria-label={t('matrix.selectServer', { name: server.name })}
                title={t('matrix.selectServer', { name: server.name })}
                tabIndex={tab(0, index + 1)}
                data-cell={cellKey({ row: 0, col: index + 1 })}
                onChange={(event) => onSelectServer(server.id, event.target.checked)}
              />
              <span className="matrix__servername" title={server.name}>
                {server.name}
              </span>
            </span>
            <span className="matrix__colstate">
              <span className={`dot dot--${live ? words.tone : 'neutral'}`} aria-hidden="true" />
              <span className="matrix__serverstate" title={live ? t(words.key) : undefined}>
                {live ? t(words.key) : t('status.unknown')}
              </span>
              {/* Said before a change is made: a grant or revoke here restarts it (the host's policy decides). */}
              {restarts && (
                <span className="matrix__restarts" role="img" aria-label={t('matrix.restartsToApply')} title={restarts.grant ?? restarts.revoke}>
                  ↻
                </span>
              )}
            </span>
            <ConfinementTag server={server} />
          </div>
          );
        })}
        <div className="matrix__filler" aria-hidden="true" />
      </div>
      <div role="row" aria-rowindex={2} className="matrix__row matrix__row--sharing">
        <div role="columnheader" className="matrix__corner matrix__corner--sharing" tabIndex={tab(1, 0)} data-cell={cellKey({ row: 1, col: 0 })}>
          {t('matrix.sharingRow')}
        </div>
        {servers.map((server, index) => (
          <div role="columnheader" className="matrix__colhead matrix__colhead--sharing" key={server.id}>
            <Switch
              size="small"
              checked={server.sharing}
              ariaLabel={t('matrix.sharingFor', { name: server.name })}
              label={server.sharing ? t('common.on') : t('common.off')}
              busy={pendingSharing.has(server.id)}
              tabIndex={tab(1, index + 1)}
              dataCell={cellKey({ row: 1, col: index + 1 })}
              onChange={(next) => onSharing(server, next)}
            />
          </div>
        ))}
        <div className="matrix__filler" aria-hidden="true" />
      </div>
    </div>
  );
});
