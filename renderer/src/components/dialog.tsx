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
  /** Where focus goes when the opener is gone (an empty state's button replaced by the list). */
  fallbackFocus?: () => HTMLElement | null | undefined;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({ open, title, onClose, children, footer, description, size = 'medium', role = 'dialog', testId, fallbackFocus }: DialogProps) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const fallbackRef = useRef(fallbackFocus);
  fallbackRef.current = fallbackFocus;

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
      // Back to the control that opened it; if that went away with what the dialog did (a removed
      // row, an answered request), to the fallback or the screen itself rather than to nowhere.
      const restore = () => {
        const target = opener?.isConnected ? opener : (fallbackRef.current?.() ?? document.getElementById('main-content'));
        target?.focus();
      };
      restore();
      // The opener may go a moment later, when the host's update arrives (an empty state replaced
      // by the list): follow it for a little while.
      if (opener?.isConnected) {
        const observer = new MutationObserver(() => {
          if (opener.isConnected) return;
          observer.disconnect();
          if (document.activeElement === null || document.activeElement === document.body) restore();
        });
        observer.observe(document.body, { childList: true, subtree: true });
        setTimeout(() => observer.disconnect(), 3000);
      }
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
