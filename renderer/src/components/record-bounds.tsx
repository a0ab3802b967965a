// How much of each server's file record is kept (issue #29): two settings, the newest entries
// within some days, said in one line under "Changes by this server" where the record is read, and
// changed there within their ranges (shared/file-record.ts). A lower bound cuts the record at the
// server's next operation, and the form says so before it is saved.
import { useId, useState, type FormEvent } from 'react';
import type { Settings } from '../../../shared/domain.js';
import { RECORD_BOUNDS, recordBounds, type RecordBoundName } from '../../../shared/file-record.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { useCommand } from '../use-command.js';
import { InlineError } from './inline-error.js';
import { BoundedNumberField } from './bounded-number-field.js';

const NAMES: RecordBoundName[] = ['recordEntries', 'recordDays'];
const LABELS: Record<RecordBoundName, MessageKey> = { recordEntries: 'record.entries', recordDays: 'record.days' };

export function RecordBounds({ settings }: { settings: Settings | undefined }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const bounds = recordBounds(settings);
  return (
    <div className="record-bounds">
      {editing ? (
        <RecordBoundsForm settings={settings} onDone={(didSave) => (setEditing(false), setSaved(didSave))} />
      ) : (
        <p className="field-hint record-bounds__line">
          {t('record.kept', { entries: bounds.entries, days: bounds.days })}{' '}
          <button type="button" className="button button--compact button--ghost" onClick={() => (setSaved(false), setEditing(true))}>
            {t('record.change')}
          </button>
          {saved && (
            <span className="field-hint--success" role="status">
              {' '}
              {t('record.saved')}
            </span>
          )}
        </p>
      )}
    </div>
  );
}

function RecordBoundsForm({ settings, onDone }: { settings: Settings | undefined; onDone(saved: boolean): void }) {
  const { t } = useI18n();
  const update = useCommand('settings.update');
  const formId = useId();
  const [texts, setTexts] = useState<Record<RecordBoundName, string>>(() => ({
    recordEntries: settings?.recordEntries === undefined ? '' : String(settings.recordEntries),
    recordDays: settings?.recordDays === undefined ? '' : String(settings.recordDays),
  }));
  const [tried, setTried] = useState(false);
  const problemOf = (name: RecordBoundName): string | undefined => {
    const text = texts[name].trim();
    if (text === '') return undefined;
    const { min, max } = RECORD_BOUNDS[name];
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    return Number.isInteger(value) && value >= min && value <= max ? undefined : t('limits.outOfRange', { min, max });
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (NAMES.some((name) => problemOf(name))) return;
    // An empty field is the default, stored as its number: a setting cannot be removed by a patch.
    const value = (name: RecordBoundName) => (texts[name].trim() === '' ? RECORD_BOUNDS[name].default : Number(texts[name].trim()));
    const result = await update.run({ recordEntries: value('recordEntries'), recordDays: value('recordDays') });
    if (result.ok) onDone(true);
  };
  return (
    <form id={formId} className="form limits__form record-bounds__form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('record.heading')}>
      {NAMES.map((name) => {
        const { min, max, default: fallback } = RECORD_BOUNDS[name];
        const id = `${formId}-${name}`;
        const problem = tried ? problemOf(name) : undefined;
        return (
          <BoundedNumberField
            key={name}
            id={id}
            label={t(LABELS[name])}
            value={texts[name]}
            min={min}
            max={max}
            fallback={fallback}
            problem={problem}
            onChange={(value) => setTexts((before) => ({ ...before, [name]: value }))}
          />
        );
      })}
      <p className="field-hint">{t('record.cutNote')}</p>
      <InlineError error={update.error} onDismiss={update.clearError} />
      <div className="limits__actions">
        <button type="button" className="button button--compact" onClick={() => onDone(false)}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--compact button--primary" disabled={update.pending}>
          {t('record.save')}
        </button>
      </div>
    </form>
  );
}
