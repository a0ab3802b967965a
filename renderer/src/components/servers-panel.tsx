// The Servers screen: the list with live states on the left, the chosen server on the right.
import { useRef, useState, type Ref } from 'react';
import type { ImportPreviewView } from '../../../shared/import-types.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useServers } from '../use-host-state.js';
import { EmptyState } from './empty-state.js';
import { PlusIcon, ServerIcon } from './icons.js';
import { ImportDialog } from './import-dialog.js';
import { ServerDetail } from './server-detail.js';
import { ServerFormDialog } from './server-form-dialog.js';
import { ServerList } from './server-list.js';
import { UseWithButton } from './use-with-button.js';

export function ServersPanel({ selectedId, onSelect }: { selectedId: string | undefined; onSelect(id: string | undefined): void }) {
  const { t } = useI18n();
  const servers = useServers();
  const [form, setForm] = useState<{ mode: 'add' } | { mode: 'edit'; serverId: string } | undefined>();
  // Here, not in the button: the empty state that holds the button goes away as the import lands.
  const [importing, setImporting] = useState(false);
  // A config pasted into the Add form that the form cannot take alone: imported from its preview.
  const [pasted, setPasted] = useState<ImportPreviewView | undefined>();
  // Fall back to the first server when the chosen one was removed (or nothing was chosen yet).
  const selected = servers.find((server) => server.id === selectedId) ?? servers[0];
  const editing = form?.mode === 'edit' ? servers.find((server) => server.id === form.serverId) : undefined;

  // The header's Add server takes focus back when the empty state's one (the opener) is gone.
  const headerAdd = useRef<HTMLButtonElement>(null);
  const addButton = (ref?: Ref<HTMLButtonElement>) => (
    <button ref={ref} type="button" className="button button--primary" onClick={() => setForm({ mode: 'add' })}>
      <PlusIcon /> {t('servers.add')}
    </button>
  );
  const importButton = (
    <button type="button" className="button" onClick={() => setImporting(true)} aria-haspopup="dialog">
      {t('import.open')}
    </button>
  );

  return (
    <section className="panel" aria-labelledby="servers-title">
      <header className="panel__header">
        <div>
          <h1 id="servers-title" className="panel__title">
            {t('servers.title')}
          </h1>
          <p className="panel__lead">{t('servers.lead')}</p>
        </div>
        {servers.length > 0 && (
          <div className="servers-panel__actions">
            {importButton}
            {/* Nothing ticked from here: the server selected in the list is not a choice made for
                this dialog (#30 item 11). The detail's own Use with… starts with its server. */}
            <UseWithButton />
            {addButton(headerAdd)}
          </div>
        )}
      </header>
      {servers.length === 0 ? (
        <EmptyState icon={<ServerIcon size={28} />} title={t('servers.emptyTitle')} action={<>{addButton()}{importButton}</>}>
          <p>{t('servers.emptyBody1')}</p>
          <p>{t('servers.emptyBody2')}</p>
        </EmptyState>
      ) : (
        <div className="servers-layout">
          <ServerList servers={servers} selectedId={selected?.id} onSelect={onSelect} />
          {selected && (
            <ServerDetail
              key={selected.id}
              server={selected}
              onEdit={() => setForm({ mode: 'edit', serverId: selected.id })}
              onRemoved={() => onSelect(undefined)}
            />
          )}
        </div>
      )}
      <ImportDialog
        open={importing}
        initial={pasted}
        onClose={() => {
          setImporting(false);
          setPasted(undefined);
        }}
        onImported={onSelect}
      />
      <ServerFormDialog
        open={form !== undefined && (form.mode === 'add' || editing !== undefined)}
        server={editing}
        onClose={() => setForm(undefined)}
        fallbackFocus={() => headerAdd.current}
        onSaved={(serverId) => {
          setForm(undefined);
          onSelect(serverId);
        }}
        onSnippet={(preview) => {
          setForm(undefined);
          setPasted(preview);
          setImporting(true);
        }}
      />
    </section>
  );
}
