// One folder in the roots table. Memoized: a state update re-renders only the rows that changed.
import { memo } from 'react';
import type { RootView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { FolderIcon, LinkIcon, PencilIcon, TrashIcon } from './icons.js';
import { RootAccessStatus } from './root-access-status.js';
import { RootNameEditor } from './root-name-editor.js';
import { Highlighted } from './highlighted.js';
import type { FilterMatch } from './matrix-view.js';
import { serverNames, type SharedWith } from './shared-with.js';

/** Up to this many servers that do not see the folder now are named on its one short line; more are counted. */
const HIDDEN_NAMED = 2;

export interface RootRowProps {
  root: RootView;
  match?: FilterMatch | undefined;
  /** Tells this folder from others of the same name (the path below shows it in full too). */
  hint?: string | undefined;
  rowIndex: number;
  sharedWith: SharedWith;
  serverCount: number;
  editing: boolean;
  onEdit(rootId: string | undefined): void;
  onRemove(root: RootView): void;
}

export const RootRow = memo(function RootRow({ root, match, hint, rowIndex, sharedWith, serverCount, editing, onEdit, onRemove }: RootRowProps) {
  const { t } = useI18n();
  const problem = root.access.state !== 'ok' && root.access.state !== 'checking';
  return (
    <div role="row" aria-rowindex={rowIndex} className={`roots-table__row${problem ? ' roots-table__row--problem' : ''}`} data-root-id={root.id}>
      <div role="rowheader" className="roots-table__cell roots-table__cell--name">
        <FolderIcon className="roots-table__folder" />
        <div className="roots-table__stack">
          {editing ? (
            <RootNameEditor root={root} onDone={() => onEdit(undefined)} />
          ) : (
            <span className="roots-table__name" title={root.name}>
              <Highlighted text={root.name} match={match?.field === 'name' ? match : undefined} />
              {hint && <span className="roots-table__hint mono"> {hint}</span>}
            </span>
          )}
          {!editing && (
            <span className="roots-table__path" title={root.path}>
              <Highlighted text={root.path} match={match?.field === 'path' ? match : undefined} />
            </span>
          )}
          {!editing && root.isLink && (
            <span className="roots-table__link" title={t('roots.linkTarget', { target: root.canonicalPath })}>
              <LinkIcon size={12} />
              <span className="visually-hidden">{t('roots.linkTargetPrefix')}</span>
              <span className="roots-table__linktext">{root.canonicalPath}</span>
            </span>
          )}
        </div>
      </div>
      <div role="cell" className="roots-table__cell roots-table__cell--status">
        <RootAccessStatus root={root} problem={problem} />
      </div>
      <div role="cell" className="roots-table__cell roots-table__cell--shared">
        {sharedWith.servers.length === 0 ? (
          <span className="muted">{t('roots.sharedNobody')}</span>
        ) : (
          <span className="roots-table__sharedwith">
            <span className="roots-table__servers" title={sharedWith.servers.join(', ')}>
              {serverNames(t, sharedWith.servers)}
            </span>
            <span className="roots-table__sharedcount">
              <span className="muted">{t('roots.sharedWith', { shared: sharedWith.servers.length, count: serverCount })}</span>
              {sharedWith.hidden.length > 0 && (
                <span className="roots-table__hidden" title={sharedWith.hidden.join(', ')}>
                  {' '}
                  ·{' '}
                  {sharedWith.hidden.length <= HIDDEN_NAMED
                    ? t('roots.hiddenFromNamed', { names: sharedWith.hidden.join(', '), count: sharedWith.hidden.length })
                    : t('roots.hiddenFrom', { count: sharedWith.hidden.length })}
                </span>
              )}
            </span>
          </span>
        )}
      </div>
      <div role="cell" className="roots-table__cell roots-table__cell--actions">
        <button type="button" className="icon-button" aria-label={t('roots.rename', { name: root.name })} title={t('roots.renameShort')} onClick={() => onEdit(root.id)} disabled={editing}>
          <PencilIcon />
        </button>
        <button type="button" className="icon-button icon-button--danger" aria-label={t('roots.remove', { name: root.name })} title={t('roots.removeShort')} onClick={() => onRemove(root)}>
          <TrashIcon />
        </button>
      </div>
    </div>
  );
});
