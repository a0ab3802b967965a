// In the Folders screen's header: find a folder by name or path, choose the order, and how many show.
import { useId } from 'react';
import { useI18n } from '../i18n/i18n-context.js';
import { SearchIcon } from './icons.js';
import { SORT_LABELS } from './matrix-toolbar.js';
import { ROOT_SORTS, type RootSort } from './matrix-view.js';

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
      <label className="matrix-toolbar__sort">
        <span className="matrix-toolbar__sortlabel">{t('sort.label')}</span>
        <select className="select" value={props.sort} onChange={(event) => props.onSort(event.target.value as RootSort)}>
          {ROOT_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {t(SORT_LABELS[sort])}
            </option>
          ))}
        </select>
      </label>
      <span className="panel__count" role="status">
        {props.shown < props.total ? t('roots.showing', { shown: props.shown, count: props.total }) : t('roots.count', { count: props.total })}
      </span>
    </div>
  );
}
