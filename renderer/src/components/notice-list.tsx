// Store notices (an unreadable registry was recovered, an external edit was applied, ...). Each one
// stays until dismissed, and a failed dismissal says so beside its button.
import type { Notice } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { useCommand } from '../use-command.js';
import { useNotices } from '../use-host-state.js';
import { AlertIcon, CloseIcon, InfoIcon } from './icons.js';
import { InlineError } from './inline-error.js';

export function NoticeList() {
  const { t } = useI18n();
  const notices = useNotices();
  if (notices.length === 0) return null;
  return (
    <ul className="notices" aria-label={t('notices.label')}>
      {notices.map((notice) => (
        <NoticeItem key={notice.id} notice={notice} />
      ))}
    </ul>
  );
}

/**
 * The notice in the person's language from its code, in English too: the host's message carries
 * raw details (a D-Bus error, a file name) that belong behind "Details", not in the banner's line.
 * A notice without words of its own here shows the host's message as it is.
 */
function noticeWords(t: ReturnType<typeof useI18n>['t'], notice: Notice): { text: string; detail?: string } {
  const key = `notice.${notice.code}` as MessageKey;
  const translated = t(key);
  if (translated === key) return { text: notice.message };
  return { text: translated, detail: notice.message };
}

function NoticeItem({ notice }: { notice: Notice }) {
  const { t, formatTime } = useI18n();
  const words = noticeWords(t, notice);
  const dismiss = useCommand('notices.dismiss');
  const Icon = notice.level === 'info' ? InfoIcon : AlertIcon;
  return (
    <li className={`banner banner--${notice.level}`}>
      <Icon className="banner__icon" size={18} />
      <div className="banner__body">
        {/* title: the whole line where a short window folds it and there are no details to open */}
        <p className="banner__text" title={words.text}>
          <span className="visually-hidden">{t(`notices.${notice.level}`)}: </span>
          {words.text} <span className="muted">{formatTime(notice.at)}</span>
        </p>
        {words.detail && (
          <details className="banner__detail">
            <summary>{t('notice.detail')}</summary>
            <p className="mono" lang="en">
              {words.detail}
            </p>
          </details>
        )}
        <InlineError error={dismiss.error} onDismiss={dismiss.clearError} />
      </div>
      <button
        type="button"
        className="icon-button"
        aria-label={t('notices.dismiss')}
        disabled={dismiss.pending}
        onClick={() => void dismiss.run({ noticeId: notice.id })}
      >
        <CloseIcon />
      </button>
    </li>
  );
}
