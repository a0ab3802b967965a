// One matrix cell: a native checkbox (checked = granted) and, on a granted cell, its mode ("rw" or
// "ro", "ro*" where read-only is asked for but not enforced). A grant the server cannot use right
// now (folder missing, sharing off, server disabled) is drawn in the warning color with the reason
// as its tooltip. The checkbox stays the cell's one focus stop: R changes the mode from the keyboard,
// the mode button is for the mouse. P opens a read-write grant's protected-path choice. Few elements per cell: thousands are on screen at once.
import { memo, type KeyboardEvent } from 'react';

export type GrantLook = 'off' | 'on' | 'hidden';

/** A granted cell's mode as drawn: read-write, read-only enforced, or read-only only asked for. */
export type ModeLook = 'rw' | 'ro' | 'ro-advisory';

export interface GrantModeProps {
  look: ModeLook;
  /** "rw" / "ro" / "ro*". */
  text: string;
  /** The mode button's name: what a click does. */
  actionLabel: string;
  title: string;
  onChange(): void;
}

/** A read-write grant's protected-path choice: its opener, and the marker where a choice exists. */
export interface GrantOptInProps {
  /** The opted-in names, empty when none. */
  chosen: readonly string[];
  /** Where names are chosen: the marker text names them; else the opener's name. */
  label: string;
  onOpen(): void;
}

export interface GrantToggleProps {
  look: GrantLook;
  label: string;
  title: string | undefined;
  tabIndex: number;
  dataCell: string;
  pending: boolean;
  failed: boolean;
  /** Set on a granted cell. */
  mode?: GrantModeProps | undefined;
  optIn?: GrantOptInProps | undefined;
  onToggle(): void;
}

export const GrantToggle = memo(function GrantToggle({ look, label, title, tabIndex, dataCell, pending, failed, mode, optIn, onToggle }: GrantToggleProps) {
  // R changes the mode, P opens the protected-path choice: the cell keeps one Tab stop.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    const act = key === 'r' ? mode?.onChange : key === 'p' ? optIn?.onOpen : undefined;
    if (!act) return;
    event.preventDefault();
    act();
  };
  return (
    <>
      <input
        type="checkbox"
        className={`grant grant--${look}${pending ? ' grant--pending' : ''}${failed ? ' grant--failed' : ''}`}
        checked={look !== 'off'}
        aria-label={label}
        aria-busy={pending || undefined}
        aria-invalid={failed || undefined}
        aria-keyshortcuts={mode ? (optIn ? 'R P' : 'R') : undefined}
        title={title}
        tabIndex={tabIndex}
        data-cell={dataCell}
        onChange={onToggle}
        onKeyDown={onKeyDown}
      />
      {mode && (
        <button
          type="button"
          className={`grant-mode grant-mode--${mode.look}${pending ? ' grant--pending' : ''}`}
          aria-label={mode.actionLabel}
          title={mode.title}
          // Not a Tab stop of its own: the grid keeps one per cell, and R on the checkbox does this.
          tabIndex={-1}
          onClick={mode.onChange}
        >
          {mode.text}
        </button>
      )}
      {optIn && (
        <button
          type="button"
          className={`grant-optin${optIn.chosen.length > 0 ? ' grant-optin--chosen' : ''}`}
          aria-label={optIn.label}
          title={optIn.label}
          tabIndex={-1}
          data-optin={optIn.chosen.length > 0 ? 'chosen' : 'none'}
          onClick={optIn.onOpen}
        >
          {optIn.chosen.length > 0 ? `+${optIn.chosen.length}` : '…'}
        </button>
      )}
    </>
  );
});

/** The same look for the legend, drawn, not a control: nothing to tick, nothing announced as one. */
export function GrantSample({ look }: { look: GrantLook }) {
  return <span className={`grant-sample grant-sample--${look}`} aria-hidden="true" />;
}

/** A mode sample for the legend. */
export function ModeSample({ look, text }: { look: ModeLook; text: string }) {
  return (
    <span className={`grant-mode grant-mode--${look} grant-mode--sample`} aria-hidden="true">
      {text}
    </span>
  );
}
