// The Folders screen: what a root is, adding one, and every root with its reachability.
import { useCallback, useMemo, useState } from 'react';
import type { RootView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { useGrantIndex, useRoots, useServers } from '../use-host-state.js';
import { AddRootForm } from './add-root-form.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { EmptyState } from './empty-state.js';
import { FolderIcon, RefreshIcon } from './icons.js';
import { InlineError } from './inline-error.js';
import { rootRows, type RootSort } from './matrix-view.js';
import { RootsToolbar } from './roots-toolbar.js';
import { RootsTable } from './roots-table.js';
import { offerUndo } from '../undo-offer.js';

export function RootsPanel() {
  const { t } = useI18n();
  const roots = useRoots();
  const remove = useCommand('roots.remove');
  const recheck = useCommand('roots.recheck');
  const unreachable = roots.some((root) => root.access.state !== 'ok' && root.access.state !== 'checking');
  const [removing, setRemoving] = useState<RootView | undefined>();
  const servers = useServers();
  const grants = useGrantIndex();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<RootSort>('added');
  const rows = useMemo(() => rootRows(roots, servers, grants, { filter, sort }), [roots, servers, grants, filter, sort]);

  const onRemove = useCallback(
    (root: RootView) => {
      remove.clearError();
      setRemoving(root);
    },
    [remove.clearError],
  );

  const confirmRemove = async () => {
    if (!removing) return;
    const result = await remove.run({ rootIds: [removing.id] });
    if (result.ok) {
      offerUndo(result.value.undoId, t('undo.removedFolder', { name: removing.name }));
      setRemoving(undefined);
    }
  };

  return (
    <section className="panel" aria-labelledby="roots-title">
      <header className="panel__header">
        <div>
          <h1 id="roots-title" className="panel__title">
            {t('roots.title')}
          </h1>
          <p className="panel__lead">{t('roots.lead')}</p>
        </div>
        {roots.length > 0 && (
          <div className="panel__aside">
            {unreachable && (
              <button type="button" className="button button--compact" disabled={recheck.pending} onClick={() => void recheck.run({})}>
                <RefreshIcon /> {t('roots.recheckAll')}
              </button>
            )}
            <RootsToolbar filter={filter} onFilter={setFilter} sort={sort} onSort={setSort} shown={rows.length} total={roots.length} />
          </div>
        )}
      </header>
      <InlineError error={recheck.error} onDismiss={recheck.clearError} />
      <AddRootForm />
      {roots.length === 0 ? (
        <EmptyState icon={<FolderIcon size={28} />} title={t('roots.emptyTitle')}>
          <p>{t('roots.emptyBody1')}</p>
          <p>{t('roots.emptyBody2')}</p>
        </EmptyState>
      ) : (
        <>{rows.length === 0 ? <p className="muted roots-panel__nomatch">{t('matrix.noMatch', { filter })}</p> : <RootsTable rows={rows} onRemove={onRemove} />}</>
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title={t('roots.removeTitle', { name: removing?.name ?? '' })}
        confirmLabel={t('roots.removeConfirm')}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(undefined)}
        pending={remove.pending}
        error={remove.error}
      >
        <p>{t('roots.removeBody', { path: removing?.path ?? '' })}</p>
      </ConfirmDialog>
    </section>
  );
}
