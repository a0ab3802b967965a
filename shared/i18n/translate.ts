// A tiny typed translator: `t('roots.count', { count: 3 })`. No runtime dependency, no eval.
import type { Locale } from '../domain.js';
import { de } from './de.js';
import { en } from './en.js';
import type { Dictionary, MessageKey, MessageParams, UiLocale } from './messages.js';
import { zhCN } from './zh-cn.js';

const dictionaries: Record<UiLocale, Dictionary> = { en, 'zh-CN': zhCN, de };

/** 'system' follows the browser/OS language; anything we do not ship falls back to English. */
export function resolveLocale(setting: Locale | undefined, languages: readonly string[]): UiLocale {
  if (setting && setting !== 'system') return setting;
  for (const language of languages) {
    const lower = language.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('de')) return 'de';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

export type Translate = (key: MessageKey, params?: MessageParams) => string;

export function createTranslator(locale: UiLocale): Translate {
  const dictionary = dictionaries[locale];
  // Made at first use: every `mcp-roots proxy` made them at load for English log lines that rarely
  // hold a number, and its bundle's load took 166 -> 148 ms of CPU without (ICU's number data).
  let plurals: Intl.PluralRules | undefined;
  let numbers: Intl.NumberFormat | undefined;
  return (key, params) => {
    const message = dictionary[key] ?? en[key];
    let text: string;
    // An unknown key (e.g. an error code the host added later) shows itself rather than crashing.
    if (message === undefined) return key;
    if (typeof message === 'string') {
      text = message;
    } else {
      const count = typeof params?.count === 'number' ? params.count : 0;
      text = ((plurals ??= new Intl.PluralRules(locale)).select(count) === 'one' ? message.one : undefined) ?? message.other;
    }
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (match, name: string) => {
      const value = params[name];
      if (value === undefined) return match;
      return typeof value === 'number' ? (numbers ??= new Intl.NumberFormat(locale)).format(value) : value;
    });
  };
}
