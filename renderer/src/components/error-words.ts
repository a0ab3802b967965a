// A host error as words on screen. The host's message is a whole English sentence that already
// says what went wrong and where ('"/home/me/x" does not exist.'), so in English it stands alone:
// the code's title before it only said the same twice ("Does not exist. … does not exist.").
// In another language the translated title says it, and the English message follows, marked as
// English, for the path or detail it carries.
import type { ErrorCode } from '../../../shared/result.js';
import type { UiLocale } from '../../../shared/i18n/messages.js';

/** Codes whose message may be a raw library error: the title is the only plain word on it. */
const TITLE_NEEDED = new Set<string>(['internal', 'store-failed']);

export interface ErrorWords {
  title?: string;
  message: string;
  /** Set when the message is not in the page's language. */
  messageLang?: 'en';
}

export function errorWords(locale: UiLocale, errorTitle: (code: ErrorCode | string) => string, error: { code: ErrorCode | string; message: string }): ErrorWords {
  if (locale === 'en') return TITLE_NEEDED.has(error.code) ? { title: errorTitle(error.code), message: error.message } : { message: error.message };
  return { title: errorTitle(error.code), message: error.message, messageLang: 'en' };
}
