// A modal on the native <dialog>: showModal() makes the page behind it inert, Escape closes it,
// and focus returns to the opener. Tab is wrapped so focus never leaves for the browser chrome.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n-context.js';
import { CloseIcon } from './icons.js';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  description?: ReactNode;
  size?: 'small' | 'medium' | 'large';
  /** The alertdialog role for confirmations that interrupt. */
  role?: 'dialog' | 'alertdialog';
  testId?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({ open, title, onClose, children, footer, description, size = 'medium', role = 'dialog', testId }: DialogProps) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    // Focus the first field (or [data-autofocus]) rather than the close button.
    const preferred =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog.querySelector('.dialog__body')?.querySelector<HTMLElement>(FOCUSABLE) ??
      dialog.querySelector('.dialog__footer')?.querySelector<HTMLElement>(FOCUSABLE);
    preferred?.focus();
    return () => {
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;

  return (
    <dialog
      ref={ref}
      className={`dialog dialog--${size}`}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-testid={testId}
      onCancel={(event) => {
        // Escape: let React own the open state instead of the element closing itself.
        event.preventDefault();
        onCloseRef.current();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Tab') return;
        const items = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((item) => item.offsetParent !== null);
        const first = items[0];
        const last = items[items.length - 1];
        if (!first || !last) return;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }}
    >
      <header className="dialog__header">
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={() => onCloseRef.current()}>
          <CloseIcon />
        </button>
      </header>
      {description && (
        <div id={descriptionId} className="dialog__description">
          {description}
        </div>
      )}
      <div className="dialog__body">{children}</div>
      {footer && <footer className="dialog__footer">{footer}</footer>}
    </dialog>
  );
}
