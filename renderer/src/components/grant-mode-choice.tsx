// How a new grant lets a server use its folders: read-only first (what most servers need), or
// read-write. Where the OS sandbox does not run the server, read-only is only asked of it, and the
// hint says so: the screen never promises more than the code enforces.
import { useId } from 'react';
import type { GrantMode, ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { confinementLook, enforcesModes } from './confinement-view.js';

const MODES: GrantMode[] = ['read-only', 'read-write'];

export function GrantModeChoice({ server, mode, onChange }: { server: ServerView; mode: GrantMode; onChange(mode: GrantMode): void }) {
  const { t } = useI18n();
  const id = useId();
  const enforced = enforcesModes(confinementLook(server));
  return (
    <>
      <fieldset className="segmented grant-mode-choice" aria-describedby={`${id}-hint`}>
        <legend className="field-label">{t('consent.modeLegend')}</legend>
        {MODES.map((option) => (
          <label key={option} className={`segmented__option${mode === option ? ' segmented__option--checked' : ''}`}>
            <input type="radio" name={`${id}-mode`} value={option} checked={mode === option} onChange={() => onChange(option)} />
            {t(option === 'read-only' ? 'consent.modeReadOnly' : 'consent.modeReadWrite')}
          </label>
        ))}
      </fieldset>
      <p id={`${id}-hint`} className="field-hint">
        {mode === 'read-only' ? t(enforced ? 'consent.modeReadOnlyHint' : 'consent.modeReadOnlyAdvisory', { name: server.name }) : t('consent.modeReadWriteHint', { name: server.name })}
      </p>
    </>
  );
}
