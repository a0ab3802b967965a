// Choose which folders a server that asked may see, and how: read-only first, as the least it
// needs to read a project. Nothing is pre-checked: consent is explicit.
import { SENSITIVE_WARNING } from './sensitive-words.js';
import { useId, useMemo, useState } from 'react';
import type { GrantMode, ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { useRoots } from '../use-host-state.js';
import { AccessBadge } from './access-badge.js';
import { AddRootForm } from './add-root-form.js';
import { GrantModeChoice } from './grant-mode-choice.js';
import { Dialog } from './dialog.js';
import { InlineError } from './inline-error.js';

const SHOWN = 200;

export function ConsentDialog({ open, server, onClose }: { open: boolean; server: ServerView; onClose(): void }) {
  const { t } = useI18n();
  const roots = useRoots();
  const grant = useCommand('grants.set');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [filter, setFilter] = useState('');
  const [mode, setMode] = useState<GrantMode>('read-only');
  const filterId = useId();

  const matching = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return needle ? roots.filter((root) => root.name.toLowerCase().includes(needle) || root.path.toLowerCase().includes(needle)) : roots;
  }, [roots, filter]);
  const rootIds = roots.filter((root) => chosen.has(root.id)).map((root) => root.id);

  const share = async () => {
    if (rootIds.length === 0) return;
    const result = await grant.run({ serverIds: [server.id], rootIds, granted: true, mode });
    if (result.ok) onClose();
  };

  return (
    <Dialog
      open={open}
      title={t('consent.dialogTitle', { name: server.name })}
      description={<p>{t('consent.dialogBody', { name: server.name })}</p>}
      onClose={onClose}
      testId="consent-dialog"
      footer={
        <>
          <InlineError error={grant.error} onDismiss={grant.clearError} />
          <span className="dialog__spacer" />
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button--primary" disabled={rootIds.length === 0 || grant.pending} onClick={() => void share()}>
            {t('consent.share', { count: rootIds.length })}
          </button>
        </>
      }
    >
      {roots.length === 0 ? (
        <>
          <p className="muted">{t('consent.noRoots')}</p>
          <AddRootForm />
        </>
      ) : (
        <>
          {roots.length > 8 && (
            <div className="field">
              <label htmlFor={filterId} className="field-label">
                {t('matrix.filterLabel')}
              </label>
              <input id={filterId} type="search" className="input" value={filter} onChange={(event) => setFilter(event.target.value)} />
            </div>
          )}
          <ul className="choice-list" aria-label={t('consent.listLabel')}>
            {matching.slice(0, SHOWN).map((root) => (
              <li key={root.id}>
                <label className="choice-list__item">
                  <input
                    type="checkbox"
                    className="checkbox"
                    checked={chosen.has(root.id)}
                    onChange={(event) => {
                      const next = new Set(chosen);
                      if (event.target.checked) next.add(root.id);
                      else next.delete(root.id);
                      setChosen(next);
                    }}
                  />
                  <span className="choice-list__text">
                    <span className="choice-list__name">{root.name}</span>
                    <span className="choice-list__path mono">{root.path}</span>
                  </span>
                  <AccessBadge access={root.access} />
                </label>
                {/* What is at stake, said where it is ticked, as everywhere a grant is made (#30 item 2). */}
                {root.sensitive && chosen.has(root.id) && <p className="field-hint field-hint--warning">{t(SENSITIVE_WARNING[root.sensitive])}</p>}
              </li>
            ))}
          </ul>
          {matching.length > SHOWN && <p className="muted">{t('consent.refine', { count: matching.length - SHOWN })}</p>}
          <GrantModeChoice server={server} mode={mode} onChange={setMode} />
        </>
      )}
    </Dialog>
  );
}
