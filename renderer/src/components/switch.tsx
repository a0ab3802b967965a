// An on/off switch that is a real button with role="switch": Space/Enter toggle it, screen readers
// announce "on/off", and the visible label (or aria-label) names it.
import type { ReactNode } from 'react';

export interface SwitchProps {
  checked: boolean;
  onChange(next: boolean): void;
  label?: ReactNode;
  /** Used when the label is not visible (matrix headers). */
  ariaLabel?: string;
  disabled?: boolean;
  busy?: boolean;
  tabIndex?: number;
  dataCell?: string;
  size?: 'small' | 'normal';
  describedBy?: string;
}

export function Switch({ checked, onChange, label, ariaLabel, disabled, busy, tabIndex, dataCell, size = 'normal', describedBy }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={ariaLabel}
      aria-busy={busy || undefined}
      aria-describedby={describedBy}
      disabled={disabled}
      tabIndex={tabIndex}
      data-cell={dataCell}
      className={`switch switch--${size}`}
      onClick={() => onChange(!checked)}
    >
      <span className="switch__track" aria-hidden="true">
        <span className="switch__thumb" />
      </span>
      {label !== undefined && <span className="switch__label">{label}</span>}
    </button>
  );
}
