// The error of one control, rendered right next to it. role="alert" so it is announced when it appears.
// ErrorText: its words, also for the lists of failures that carry their own frame.
import type { HostError } from '../../../shared/result.js';
import { useI18n } from '../i18n/i18n-context.js';
import { errorWords, type ErrorWords } from './error-words.js';
import { AlertIcon, CloseIcon } from './icons.js';

export function InlineError({ error, onDismiss, id }: { error: HostError | undefined; onDismiss?: () => void; id?: string }) {
  const { t, errorTitle, locale } = useI18n();
  if (!error) return null;
  const words = errorWords(locale, errorTitle, error);
  return (
    <div className="inline-error" role="alert" id={id}>
      <AlertIcon className="inline-error__icon" />
      <span className="inline-error__text">
        <ErrorText words={words} />
      </span>
      {onDismiss && (
        <button type="button" className="icon-button icon-button--small" aria-label={t('common.dismissError')} onClick={onDismiss}>
          <CloseIcon size={14} />
        </button>
      )}
    </div>
  );
}

/** The title (where it adds something), then the host's message, marked when it is English on a page that is not. */
export function ErrorText({ words }: { words: ErrorWords }) {
  return (
    <>
      {words.title && <strong>{words.title}</strong>} <span lang={words.messageLang}>{words.message}</span>
    </>
  );
}
