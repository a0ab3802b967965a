// Above the matrix: find a folder, act on the selection, read the legend. The bulk scope is spelled
// out ("3 folders × all 5 servers") so a click never grants more than the person meant.
import { useId } from 'react';
import type { HostError } from '../../../shared/result.js';
import { useI18n } from '../i18n/i18n-context.js';
import { GrantSample } from './grant-toggle.js';
import { SearchIcon } from './icons.js';
import { InlineError } from './inline-error.js';

export interface MatrixToolbarProps {
  filter: string;
  onFilter(value: string): void;
  selectedRoots: number;
  selectedServers: number;
  scopeRoots: number;
  scopeServers: number;
  onBulk(granted: boolean): void;
  onClear(): void;
  bulkPending: boolean;
  bulkError: HostError | undefined;
  onDismissBulkError(): void;
}

export function MatrixToolbar(props: MatrixToolbarProps) {
  const { t } = useI18n();
  const filterId = useId();
  const hasSelection = props.selectedRoots > 0 || props.selectedServers > 0;
  const scope = `${
    props.selectedRoots > 0 ? t('matrix.nFolders', { count: props.scopeRoots }) : t('matrix.allFolders', { count: props.scopeRoots })
  } × ${props.selectedServers > 0 ? t('matrix.nServers', { count: props.scopeServers }) : t('matrix.allServers', { count: props.scopeServers })}`;

  return (
    <div className="matrix-toolbar">
      <div className="matrix-toolbar__row">
        <div className="input-with-icon matrix-toolbar__filter">
          <SearchIcon className="input-with-icon__icon" />
          <label htmlFor={filterId} className="visually-hidden">
            {t('matrix.filterLabel')}
          </label>
          <input
            id={filterId}
            type="search"
            className="input"
            placeholder={t('matrix.filterPlaceholder')}
            value={props.filter}
            onChange={(event) => props.onFilter(event.target.value)}
          />
        </div>
        <div className="matrix-toolbar__bulk" role="group" aria-label={t('matrix.bulkGroup')}>
          {hasSelection ? (
            <>
              <span className="matrix-toolbar__scope" aria-live="polite">
                {scope}
              </span>
              <button type="button" className="button button--primary button--compact" disabled={props.bulkPending} onClick={() => props.onBulk(true)}>
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
            <span className="muted matrix-toolbar__hint">{t('matrix.selectHint')}</span>
          )}
        </div>
      </div>
      <InlineError error={props.bulkError} onDismiss={props.onDismissBulkError} />
      <ul className="legend" aria-label={t('matrix.legend')}>
        <li>
          <GrantSample look="on" />
          {t('matrix.legendOn')}
        </li>
        <li>
          <GrantSample look="hidden" />
          {t('matrix.legendHidden')}
        </li>
        <li>
          <GrantSample look="off" />
          {t('matrix.legendOff')}
        </li>
      </ul>
    </div>
  );
}
