// A labelled select bound to one setting; the host owns the value, so the UI follows the state
// and a failed update is shown under the control.
import { useId, type ReactNode } from 'react';
import type { Settings } from '../../../shared/domain.js';
import { useCommand } from '../use-command.js';
import { InlineError } from './inline-error.js';

export interface PreferenceSelectProps<K extends keyof Settings> {
  setting: K;
  value: Settings[K];
  label: string;
  /** Beside the label's words in a wide window (a narrow one shows the words alone, above the select). */
  icon: ReactNode;
  options: { value: Settings[K]; label: string; lang?: string }[];
}

export function PreferenceSelect<K extends keyof Settings>({ setting, value, label, icon, options }: PreferenceSelectProps<K>) {
  const update = useCommand('settings.update');
  const id = useId();
  return (
    <div className="preference">
      <label htmlFor={id} className="preference__label" title={label}>
        {icon}
        <span className="preference__text">{label}</span>
      </label>
      <select
        id={id}
        className="select"
        value={value}
        disabled={update.pending}
        onChange={(event) => void update.run({ [setting]: event.target.value } as Partial<Settings>)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
      <InlineError error={update.error} onDismiss={update.clearError} />
    </div>
  );
}
