// In the Folders screen's header: find a folder by name or path, choose the order, and how many show.
import { useId } from 'react';
import { useI18n } from '../i18n/i18n-context.js';
import { SearchIcon } from './icons.js';
import type { RootSort } from './matrix-view.js';
import { RootSortSelect } from './root-sort-select.js';

export function RootsToolbar(props: { filter: string; onFilter(value: string): void; sort: RootSort; onSort(value: RootSort): void; shown: number; total: number }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <div className="matrix-toolbar__row roots-toolbar">
      <div className="input-with-icon matrix-toolbar__filter">
        <SearchIcon className="input-with-icon__icon" />
        <label htmlFor={id} className="visually-hidden">
          {t('roots.searchLabel')}
        </label>
        <input id={id} type="search" className="input" placeholder={t('roots.searchLabel')} value={props.filter} onChange={(event) => props.onFilter(event.target.value)} />
      </div>
      <RootSortSelect value={props.sort} onChange={props.onSort} />
      <span className="panel__count" role="status">
        {props.shown < props.total ? t('roots.showing', { shown: props.shown, count: props.total }) : t('roots.count', { count: props.total })}
      </span>
    </div>
  );
}
