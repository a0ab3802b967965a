// The shape every dictionary shares. English is the source of keys; the others must cover them all.
import type { en } from './en.js';

/** A plain string, or plural forms chosen by Intl.PluralRules from the `count` parameter. */
export type Message = string | { readonly one?: string; readonly other: string };

export type MessageKey = keyof typeof en;
export type Dictionary = { readonly [K in MessageKey]: Message };
export type UiLocale = 'en' | 'zh-CN' | 'de';
export type MessageParams = Readonly<Record<string, string | number>>;
