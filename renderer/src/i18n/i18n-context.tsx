// Provides the translator and locale-aware formatters to every component.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { ErrorCode } from '../../../shared/result.js';
import type { MessageKey, UiLocale } from '../../../shared/i18n/messages.js';
import { createTranslator, type Translate } from '../../../shared/i18n/translate.js';

export interface I18n {
  locale: UiLocale;
  t: Translate;
  /** "14:03:22" style clock time for timelines. */
  formatTime(at: number): string;
  /** "12 seconds ago" style, for the last roots request. */
  formatRelative(at: number, now: number): string;
  /** The translated name of a host error code (the host's message is shown beside it). */
  errorTitle(code: ErrorCode | string): string;
}

export function createI18n(locale: UiLocale): I18n {
  const t = createTranslator(locale);
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  return {
    locale,
    t,
    formatTime: (at) => time.format(at),
    formatRelative(at, now) {
      const seconds = Math.round((at - now) / 1000);
      if (Math.abs(seconds) < 60) return relative.format(seconds, 'second');
      const minutes = Math.round(seconds / 60);
      if (Math.abs(minutes) < 60) return relative.format(minutes, 'minute');
      const hours = Math.round(minutes / 60);
      if (Math.abs(hours) < 24) return relative.format(hours, 'hour');
      return relative.format(Math.round(hours / 24), 'day');
    },
    errorTitle(code) {
      const key = `error.${code}` as MessageKey;
      return t(key) === key ? t('error.internal') : t(key);
    },
  };
}

const I18nContext = createContext<I18n>(createI18n('en'));

export function I18nProvider({ locale, children }: { locale: UiLocale; children: ReactNode }) {
  const value = useMemo(() => createI18n(locale), [locale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  return useContext(I18nContext);
}
