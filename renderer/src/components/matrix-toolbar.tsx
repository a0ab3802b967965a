// Above the matrix: find folders and servers, choose what to see and in which order, act on the
// selection (the legend is matrix-legend.tsx). The bulk scope is spelled out ("3 folders × all 5 servers") and counts
// only what is shown, so a click never grants more than the person meant.
import { useId, useState } from 'react';
import { NEW_GRANT_MODE, type GrantMode } from '../../../shared/domain.js';
import type { HostError } from '../../../shared/result.js';
import { useI18n } from '../i18n/i18n-context.js';
import { SearchIcon } from './icons.js';
import { InlineError } from './inline-error.js';
import type { RootSort } from './matrix-view.js';
import { RootSortSelect } from './root-sort-select.js';

export interface MatrixToolbarProps {
  filter: string;
  onFilter(value: string): void;
  serverFilter: string;
  onServerFilter(value: string): void;
  sharedOnly: boolean;
  onSharedOnly(value: boolean): void;
  sort: RootSort;
  onSort(value: RootSort): void;
  shownRoots: number;
  totalRoots: number;
  shownServers: number;
  totalServers: number;
  selectedRoots: number;
  selectedServers: number;
  scopeRoots: number;
  scopeServers: number;
  /** Servers in the scope that are in error: a Share leaves them out, and the scope says so before it. */
  scopeInError: readonly string[];
  /** Share (with the mode chosen beside it, read-only unless changed) or stop sharing. */
  onBulk(granted: boolean, mode?: GrantMode): void;
  /** What the last Share left out, and why (servers in error), in words. */
  bulkNote?: string | undefined;
  onClear(): void;
  bulkPending: boolean;
  bulkError: HostError | undefined;
  onDismissBulkError(): void;
}

export function MatrixToolbar(props: MatrixToolbarProps) {
  const { t } = useI18n();
  const [bulkMode, setBulkMode] = useState<GrantMode>(NEW_GRANT_MODE);
  const id = useId();
  const hasSelection = props.selectedRoots > 0 || props.selectedServers > 0;
  const scope = `${
    props.selectedRoots > 0 ? t('matrix.nFolders', { count: props.scopeRoots }) : t('matrix.allFolders', { count: props.scopeRoots })
  } × ${props.selectedServers > 0 ? t('matrix.nServers', { count: props.scopeServers }) : t('matrix.allServers', { count: props.scopeServers })}${
    props.scopeInError.length > 0 ? ` (${t('matrix.scopeSkips', { names: props.scopeInError.join(', ') })})` : ''
  }`;
  const narrowed = props.shownRoots < props.totalRoots || props.shownServers < props.totalServers;

  return (
    <div className="matrix-toolbar">
      <div className="matrix-toolbar__row">
        <SearchField id={`${id}-folders`} label={t('matrix.filterLabel')} placeholder={t('matrix.filterPlaceholder')} value={props.filter} onChange={props.onFilter} className="matrix-toolbar__filter" />
        <SearchField
          id={`${id}-servers`}
          label={t('matrix.serverFilterLabel')}
          placeholder={t('matrix.serverFilterPlaceholder')}
          value={props.serverFilter}
          onChange={props.onServerFilter}
          className="matrix-toolbar__serverfilter"
        />
        <RootSortSelect value={props.sort} onChange={props.onSort} />
        <label className="checkbox-label matrix-toolbar__shared">
          <input type="checkbox" className="checkbox" checked={props.sharedOnly} onChange={(event) => props.onSharedOnly(event.target.checked)} />
          {t('matrix.sharedOnly')}
        </label>
      </div>
      <div className="matrix-toolbar__row">
        <div className="matrix-toolbar__bulk" role="group" aria-label={t('matrix.bulkGroup')}>
          {hasSelection ? (
            <>
              <span className="matrix-toolbar__scope" aria-live="polite">
                {scope}
              </span>
              {/* Which mode Share gives, asked beside it: read-only unless the person picks read-write. */}
              <select className="select matrix-toolbar__mode" aria-label={t('matrix.bulkMode')} value={bulkMode} onChange={(event) => setBulkMode(event.target.value as GrantMode)}>
                <option value="read-only">{t('grantMode.readOnly')}</option>
                <option value="read-write">{t('grantMode.readWrite')}</option>
              </select>
              <button type="button" className="button button--primary button--compact" disabled={props.bulkPending} onClick={() => props.onBulk(true, bulkMode)}>
                {t('matrix.bulkGrant')}
              </button>
              <button type="button" className="button button--compact" disabled={props.bulkPending} onClick={() => props.onBulk(false)}>
                {t('matrix.bulkRevoke')}
              </button>
              <button type="button" className="button button--ghost button--compact" onClick={props.onClear}>
                {t('matrix.clearSelection')}
              </button>
            </>
          ) : (
            <span className="muted matrix-toolbar__hint">
              {/* The mark the hint speaks of, drawn: it is not a grant box. */}
              <span className="select-mark select-mark--sample" aria-hidden="true" /> {t('matrix.selectHint')}
            </span>
          )}
        </div>
      </div>
      <p className="matrix-toolbar__count muted" role="status">
        {narrowed ? t('matrix.showing', { roots: props.shownRoots, totalRoots: props.totalRoots, servers: props.shownServers, totalServers: props.totalServers }) : ''}
      </p>
      {props.bulkNote && (
        <p className="field-hint field-hint--warning" role="status">
          {props.bulkNote}
        </p>
      )}
      <InlineError error={props.bulkError} onDismiss={props.onDismissBulkError} />
    </div>
  );
}

function SearchField(props: { id: string; label: string; placeholder: string; value: string; onChange(value: string): void; className: string }) {
  return (
    <div className={`input-with-icon ${props.className}`}>
      <SearchIcon className="input-with-icon__icon" />
      <label htmlFor={props.id} className="visually-hidden">
        {props.label}
      </label>
      <input id={props.id} type="search" className="input" placeholder={props.placeholder} value={props.value} onChange={(event) => props.onChange(event.target.value)} />
    </div>
  );
}
