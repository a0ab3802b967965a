// Every language covers every message with the same parameters; plurals and fallbacks behave.
import { describe, expect, it } from 'vitest';
import { de } from '../../shared/i18n/de.js';
import { en } from '../../shared/i18n/en.js';
import type { Dictionary, Message, MessageKey } from '../../shared/i18n/messages.js';
import { createTranslator, resolveLocale } from '../../shared/i18n/translate.js';
import { zhCN } from '../../shared/i18n/zh-cn.js';

const params = (message: Message): string[] => {
  const texts = typeof message === 'string' ? [message] : [message.other, ...(message.one ? [message.one] : [])];
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!)))].sort();
};

describe.each([
  ['zh-CN', zhCN],
  ['de', de],
] as [string, Dictionary][])('%s dictionary', (_locale, dictionary) => {
  it('has exactly the English keys', () => {
    expect(Object.keys(dictionary).sort()).toEqual(Object.keys(en).sort());
  });

  it('uses the same parameters as English in every message', () => {
    for (const key of Object.keys(en) as MessageKey[]) {
      expect({ key, params: params(dictionary[key]) }).toEqual({ key, params: params(en[key]) });
    }
  });

  it('has no empty message', () => {
    for (const [key, message] of Object.entries(dictionary)) {
      const texts = typeof message === 'string' ? [message] : [message.other, message.one ?? 'x'];
      for (const text of texts) expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
    }
  });
});

describe('translator', () => {
  it('fills parameters and picks plural forms', () => {
    const t = createTranslator('en');
    expect(t('roots.count', { count: 1 })).toBe('1 folder');
    expect(t('roots.count', { count: 1200 })).toBe('1,200 folders');
    expect(t('matrix.cellLabel', { root: 'docs', server: 'fs' })).toBe('Share docs with fs');
    expect(createTranslator('de')('roots.count', { count: 2 })).toBe('2 Ordner');
    expect(createTranslator('zh-CN')('roots.count', { count: 2 })).toBe('2 个文件夹');
  });

  it('makes its number format at the first number, not when created (ICU data, at the load of every proxy)', () => {
    const Original = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made++;
      }
    } as typeof Intl.NumberFormat;
    try {
      const t = createTranslator('en');
      expect(t('matrix.cellLabel', { root: 'docs', server: 'fs' })).toBe('Share docs with fs');
      expect(made).toBe(0);
      expect(t('roots.count', { count: 1200 })).toBe('1,200 folders');
      expect(t('roots.count', { count: 3 })).toBe('3 folders');
      expect(made).toBe(1);
    } finally {
      Intl.NumberFormat = Original;
    }
  });

  it('shows an unknown key instead of crashing', () => {
    const t = createTranslator('de');
    expect(t('error.some-future-code' as MessageKey)).toBe('error.some-future-code');
  });

  it('resolves "system" from the browser languages', () => {
    expect(resolveLocale('system', ['zh-TW', 'en'])).toBe('zh-CN');
    expect(resolveLocale('system', ['de-AT'])).toBe('de');
    expect(resolveLocale('system', ['fr-FR', 'en-GB'])).toBe('en');
    expect(resolveLocale('system', ['fr-FR'])).toBe('en');
    expect(resolveLocale('de', ['zh-CN'])).toBe('de');
    expect(resolveLocale(undefined, [])).toBe('en');
  });
});
