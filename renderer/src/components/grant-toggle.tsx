// One matrix cell: a native checkbox (checked = granted). A grant the server cannot use right now
// (folder missing, sharing off, server disabled) is drawn in the warning color with the reason as
// its tooltip. Native and one element per cell: thousands are on screen at once.
import { memo } from 'react';

export type GrantLook = 'off' | 'on' | 'hidden';

export interface GrantToggleProps {
  look: GrantLook;
  label: string;
  title: string | undefined;
  tabIndex: number;
  dataCell: string;
  pending: boolean;
  failed: boolean;
  onToggle(): void;
}

export const GrantToggle = memo(function GrantToggle({ look, label, title, tabIndex, dataCell, pending, failed, onToggle }: GrantToggleProps) {
  return (
    <input
      type="checkbox"
      className={`grant grant--${look}${pending ? ' grant--pending' : ''}${failed ? ' grant--failed' : ''}`}
      checked={look !== 'off'}
      aria-label={label}
      aria-busy={pending || undefined}
      aria-invalid={failed || undefined}
      title={title}
      tabIndex={tabIndex}
      data-cell={dataCell}
      onChange={onToggle}
    />
  );
});

/** The same look for the legend, drawn, not a control: nothing to tick, nothing announced as one. */
export function GrantSample({ look }: { look: GrantLook }) {
  return <span className={`grant-sample grant-sample--${look}`} aria-hidden="true" />;
}
