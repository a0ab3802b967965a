// The person's per-grant choice to leave protected paths (git hooks, editor and agent configs…)
// writable in one read-write grant (shared/protected-names.ts). Nothing is ticked until they tick
// it; the others stay read-only, and saving restarts the server (the paths are bound at its start).
import { useId, useState } from 'react';
import type { RootView, ServerView } from '../../../shared/domain.js';
import { HOME_ENTRIES, PROJECT_ENTRIES } from '../../../shared/protected-names.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { Dialog } from './dialog.js';
import { InlineError } from './inline-error.js';

const HOME_ONLY = HOME_ENTRIES.filter((name) => !(PROJECT_ENTRIES as readonly string[]).includes(name));

export function OptInDialog({ root, server, readOnly, onClose }: { root: RootView; server: ServerView; readOnly: boolean; onClose(): void }) {
  const { t } = useI18n();
  const save = useCommand('grants.setWritable');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(server.writableByChoice?.[root.id] ?? []));
  const hintId = useId();
  const names = { server: server.name, root: root.name };
  const toggle = (name: string, on: boolean) =>
    setChosen((before) => {
      const next = new Set(before);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  const submit = async () => {
    const result = await save.run({ serverId: server.id, rootId: root.id, names: [...chosen] });
    if (result.ok) onClose();
  };
  const group = (list: readonly string[]) => (
    <div className="opt-in__names">
      {list.map((name) => (
        <label key={name} className="opt-in__name">
          <input type="checkbox" checked={chosen.has(name)} onChange={(event) => toggle(name, event.target.checked)} />
          <span className="mono">{name}</span>
        </label>
      ))}
    </div>
  );
  return (
    <Dialog
      open
      title={t('optIn.title', names)}
      onClose={onClose}
      testId="opt-in-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button--primary" disabled={save.pending} onClick={() => void submit()}>
            {t('optIn.save')}
          </button>
        </>
      }
    >
      <fieldset className="opt-in" aria-describedby={hintId} aria-label={t('optIn.editLabel', names)}>
        <legend className="field-label">{t('optIn.legend')}</legend>
        <p id={hintId} className="field-hint">
          {t('optIn.hint', names)} {readOnly && t('optIn.readOnlyHint')}
        </p>
        {group(PROJECT_ENTRIES)}
        {group(HOME_ONLY)}
      </fieldset>
      <InlineError error={save.error} onDismiss={save.clearError} />
    </Dialog>
  );
}
