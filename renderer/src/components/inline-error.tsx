// The error of one control, rendered right next to it. role="alert" so it is announced when it appears.
import type { HostError } from '../../../shared/result.js';
import { useI18n } from '../i18n/i18n-context.js';
import { AlertIcon, CloseIcon } from './icons.js';

export function InlineError({ error, onDismiss, id }: { error: HostError | undefined; onDismiss?: () => void; id?: string }) {
  const { t, errorTitle } = useI18n();
  if (!error) return null;
  return (
    <div className="inline-error" role="alert" id={id}>
      <AlertIcon className="inline-error__icon" />
      <span className="inline-error__text">
        <strong>{errorTitle(error.code)}</strong> {error.message}
      </span>
      {onDismiss && (
        <button type="button" className="icon-button icon-button--small" aria-label={t('common.dismissError')} onClick={onDismiss}>
          <CloseIcon size={14} />
        </button>
      )}
    </div>
  );
}
