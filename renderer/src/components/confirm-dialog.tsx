// "Are you sure?" for destructive actions. The safe choice has focus; the error of the action
// itself shows inside the dialog, so a failed removal is not mistaken for a done one.
import type { ReactNode } from 'react';
import type { HostError } from '../../../shared/result.js';
import { useI18n } from '../i18n/i18n-context.js';
import { Dialog } from './dialog.js';
import { InlineError } from './inline-error.js';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  pending?: boolean;
  error?: HostError | undefined;
}

export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onCancel, pending, error }: ConfirmDialogProps) {
  const { t } = useI18n();
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      size="small"
      role="alertdialog"
      description={children}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel} data-autofocus>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button--danger" onClick={onConfirm} disabled={pending}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <InlineError error={error} />
    </Dialog>
  );
}
