// A whole number within bounds, with its range and default said under it and its problem, if any,
// announced: the sandbox limits' form and the record bounds' form (one field, one look).
import { useI18n } from '../i18n/i18n-context.js';

interface BoundedNumberFieldProps {
  id: string;
  label: string;
  value: string;
  min: number;
  max: number;
  /** Used when the field is empty (its placeholder). */
  fallback: number;
  /** Said once the person tried to save. */
  problem?: string | undefined;
  onChange(value: string): void;
}

export function BoundedNumberField({ id, label, value, min, max, fallback, problem, onChange }: BoundedNumberFieldProps) {
  const { t } = useI18n();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        id={id}
        className="input limits__input"
        inputMode="numeric"
        value={value}
        placeholder={String(fallback)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ''}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className="field-hint">
        {t('limits.bounds', { min, max, value: fallback })}
      </p>
      {problem && (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
