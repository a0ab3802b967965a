// The folders as a table, virtualized: every row is one fixed height, so 1,000 folders scroll
// as smoothly as 10. ARIA row counts/indices tell assistive tech about the rows not rendered.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { RootId, RootView } from '../../../shared/domain.js';
import type { RootRowView } from './matrix-view.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useServers } from '../use-host-state.js';
import { useVirtualRows } from '../use-virtual-rows.js';
import { RootRow } from './root-row.js';
import { sharedWithByRoot } from './shared-with.js';

const ROW_HEIGHT = 68;
const HEAD_HEIGHT = 36;

export function RootsTable({ rows, onRemove }: { rows: RootRowView[]; onRemove(root: RootView): void }) {
  const { t } = useI18n();
  const servers = useServers();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [editing, setEditing] = useState<RootId | undefined>();
  const { start, end, padTop, padBottom } = useVirtualRows(scrollRef, rows.length, ROW_HEIGHT, HEAD_HEIGHT);

  const sharedWith = useMemo(() => sharedWithByRoot(servers), [servers]);

  const onEdit = useCallback((rootId: RootId | undefined) => setEditing(rootId), []);

  return (
    <div ref={scrollRef} className="roots-table__scroll">
      <div role="table" aria-label={t('roots.tableLabel')} aria-rowcount={rows.length + 1} className="roots-table">
        <div role="rowgroup" className="roots-table__head">
          <div role="row" aria-rowindex={1} className="roots-table__row roots-table__row--head">
            <div role="columnheader" className="roots-table__cell">
              {t('roots.colFolder')}
            </div>
            <div role="columnheader" className="roots-table__cell">
              {t('roots.colStatus')}
            </div>
            <div role="columnheader" className="roots-table__cell">
              {t('roots.colShared')}
            </div>
            <div role="columnheader" className="roots-table__cell roots-table__cell--actions">
              <span className="visually-hidden">{t('roots.colActions')}</span>
            </div>
          </div>
        </div>
        <div role="rowgroup">
          <div style={{ height: padTop }} aria-hidden="true" />
          {rows.slice(start, end).map(({ root, match, hint }, offset) => (
            <RootRow
              key={root.id}
              root={root}
              match={match}
              hint={hint}
              rowIndex={start + offset + 2}
              sharedWith={sharedWith(root.id)}
              serverCount={servers.length}
              editing={editing === root.id}
              onEdit={onEdit}
              onRemove={onRemove}
            />
          ))}
          <div style={{ height: padBottom }} aria-hidden="true" />
        </div>
      </div>
    </div>
  );
}
