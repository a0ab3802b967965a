// "Sort: …" for folders, the same control on the Folders screen and above the matrix, so the two
// orders always read alike.
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { ROOT_SORTS, type RootSort } from './matrix-view.js';

const SORT_LABELS: Record<RootSort, MessageKey> = {
  added: 'sort.added',
  name: 'sort.name',
  path: 'sort.path',
  shared: 'sort.shared',
  problems: 'sort.problems',
};

export function RootSortSelect({ value, onChange }: { value: RootSort; onChange(value: RootSort): void }) {
  const { t } = useI18n();
  return (
    <label className="matrix-toolbar__sort">
      <span className="matrix-toolbar__sortlabel">{t('sort.label')}</span>
      <select className="select" value={value} onChange={(event) => onChange(event.target.value as RootSort)}>
        {ROOT_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {t(SORT_LABELS[sort])}
          </option>
        ))}
      </select>
    </label>
  );
}
