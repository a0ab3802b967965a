// One folder's row in the consent matrix. Memoized on its inputs; the grant lookups are Sets.
import { memo } from 'react';
import type { GrantMode, RootView, ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useLive } from '../use-live.js';
import type { GrantIndex } from '../grant-index.js';
import { grantKey, type PendingGrants } from '../use-pending-grants.js';
import { accessLabelKey, accessTone } from './access-badge.js';
import { accessReasonText } from './access-reason.js';
import { confinementLook, enforcesModes, grantModeLabel } from './confinement-view.js';
import { GrantToggle, type GrantLook, type GrantModeProps, type GrantOptInProps } from './grant-toggle.js';
import { clipAround, Highlighted } from './highlighted.js';
import { cellKey } from './matrix-navigation.js';
import type { FilterMatch } from './matrix-view.js';
import { restartForecast } from './restart-forecast.js';

export interface MatrixRowProps {
  root: RootView;
  /** Where the folder filter matched: highlighted, and a match in the path shows the path. */
  match?: FilterMatch | undefined;
  /** Tells this folder from others of the same name. */
  hint?: string | undefined;
  row: number;
  servers: ServerView[];
  grants: GrantIndex;
  selected: boolean;
  /** The column that holds the grid's one Tab stop, or -1 when it is in another row. */
  activeCol: number;
  pending: PendingGrants;
  failed: string | undefined;
  onToggle(root: RootView, server: ServerView, granted: boolean): void;
  /** A granted cell's mode changes (read-write <-> read-only). */
  onMode(root: RootView, server: ServerView, mode: GrantMode): void;
  onSelect(rootId: string, selected: boolean): void;
  /** Opens a grant's protected-path choice. */
  onOptIn(root: RootView, server: ServerView): void;
}

export const MatrixRow = memo(function MatrixRow({ root, match, hint, row, servers, grants, selected, activeCol, pending, failed, onToggle, onMode, onSelect, onOptIn }: MatrixRowProps) {
  const { t } = useI18n();
  const live = useLive();
  const reachable = root.access.state === 'ok';
  return (
    <div role="row" aria-rowindex={row + 1} className={`matrix__row${selected ? ' matrix__row--selected' : ''}`}>
      <div role="rowheader" className="matrix__rowheader">
        <input
          type="checkbox"
          className="select-mark"
          checked={selected}
          aria-label={t('matrix.selectRoot', { name: root.name })}
          title={t('matrix.selectRoot', { name: root.name })}
          tabIndex={activeCol === 0 ? 0 : -1}
          data-cell={cellKey({ row, col: 0 })}
          onChange={(event) => onSelect(root.id, event.target.checked)}
        />
        <span className={`dot dot--${live ? accessTone[root.access.state] : 'neutral'}`} aria-hidden="true" />
        <span className="matrix__rootlabel" title={`${root.name}\n${root.path}`}>
          <span className="matrix__rootname">
            <Highlighted text={root.name} match={match?.field === 'name' ? match : undefined} />
          </span>
          {match?.field === 'path' ? (
            <span className="matrix__roothint mono">
              <Highlighted {...clipAround(root.path, match)} />
            </span>
          ) : (
            hint && <span className="matrix__roothint mono">{hint}</span>
          )}
        </span>
        {live && !reachable && root.access.state !== 'checking' && (
          <span className={`matrix__rootstate matrix__rootstate--${accessTone[root.access.state]}`} title={accessReasonText(t, root.access)}>
            {t(accessLabelKey[root.access.state])}
          </span>
        )}
      </div>
      {servers.map((server, index) => {
        const col = index + 1;
        const restarts = live ? restartForecast(t, server) : undefined;
        const key = grantKey(root.id, server.id);
        const mark = pending.get(key);
        // While a change is in flight, show what was asked for; the host's state confirms it.
        const granted = mark ? mark.granted : grants.isGranted(server.id, root.id);
        const visible = mark ? reachable && server.enabled && server.sharing : grants.isEffective(server.id, root.id);
        const look: GrantLook = !granted ? 'off' : visible ? 'on' : 'hidden';
        const readOnly = mark?.mode !== undefined ? mark.mode === 'read-only' : grants.isReadOnly(server.id, root.id);
        const names = { root: root.name, server: server.name };
        let mode: GrantModeProps | undefined;
        let optIn: GrantOptInProps | undefined;
        let label = t('matrix.cellLabel', names);
        if (granted) {
          // Read-only is said as enforced only of a server the OS confines right now.
          const confinement = confinementLook(server);
          const enforced = enforcesModes(confinement);
          const modeText = grantModeLabel(t, readOnly, confinement);
          label = t('matrix.cellLabelMode', { ...names, mode: modeText });
          const short = !readOnly ? t('grantMode.shortReadWrite') : `${t('grantMode.shortReadOnly')}${enforced ? '' : '*'}`;
          mode = {
            look: !readOnly ? 'rw' : enforced ? 'ro' : 'ro-advisory',
            text: short,
            // Starts with the text it shows, so a voice command that says what it sees finds it.
            actionLabel: t(readOnly ? 'matrix.modeToReadWrite' : 'matrix.modeToReadOnly', { ...names, short }),
            title: readOnly && !enforced ? t('matrix.modeTitleAdvisory', names) : t('matrix.modeTitle', { mode: modeText }),
            onChange: () => onMode(root, server, readOnly ? 'read-write' : 'read-only'),
          };
          // Only where it can matter: a sandboxed local server (the choice is the sandbox's).
          const chosen = server.writableByChoice?.[root.id] ?? [];
          if (server.transport.type === 'stdio' && server.sandbox && (!readOnly || chosen.length > 0)) {
            optIn = {
              chosen,
              // Starts with the text it shows (+N), as the mode button does: a voice command finds it by what it sees.
              label: chosen.length > 0 ? `+${chosen.length} ${t('optIn.marker', { paths: chosen.join(', ') })}` : t('optIn.editLabel', names),
              onOpen: () => onOptIn(root, server),
            };
          }
        }
        return (
          <div role="gridcell" className={`matrix__cell${look === 'hidden' ? ' matrix__cell--hidden' : ''}${granted ? ' matrix__cell--granted' : ''}`} key={server.id}>
            <GrantToggle
              look={look}
              label={label}
              title={joinTitles(cellTitle(look, root, server, t), granted ? restarts?.revoke : restarts?.grant)}
              tabIndex={activeCol === col ? 0 : -1}
              dataCell={cellKey({ row, col })}
              pending={mark !== undefined && mark.acceptedAt === undefined}
              failed={failed === key}
              mode={mode}
              optIn={optIn}
              onToggle={() => onToggle(root, server, !granted)}
            />
          </div>
        );
      })}
      <div className="matrix__filler" aria-hidden="true" />
    </div>
  );
});

function joinTitles(first: string | undefined, second: string | undefined): string | undefined {
  return first && second ? `${first}\n${second}` : (first ?? second);
}

/** Only a hidden grant needs explaining; the others say what the checkbox already says. */
function cellTitle(look: GrantLook, root: RootView, server: ServerView, t: ReturnType<typeof useI18n>['t']): string | undefined {
  if (look !== 'hidden') return undefined;
  const names = { root: root.name, server: server.name };
  if (!server.enabled) return t('matrix.titleHiddenDisabled', names);
  if (!server.sharing) return t('matrix.titleHiddenSharing', names);
  return t('matrix.titleHiddenFolder', { ...names, state: t(accessLabelKey[root.access.state]) });
}
