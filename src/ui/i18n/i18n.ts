import { createSignal } from 'solid-js';
import { browserLocale } from './browser-locale';
import { english, type Locale, type MessageKey } from './dictionary';

export type { Locale, MessageKey };

/** The dictionaries loaded so far: English always; another language once `setLocale` or `loadInitialLocale` fetched it. */
const loaded: Partial<Record<Locale, Record<MessageKey, string>>> = { en: english };

const [locale, setLoadedLocale] = createSignal<Locale>('en');

/** The current UI locale; a signal, so text re-renders when it changes. */
export { locale };

export { browserLocale };

async function load(next: Locale): Promise<Record<MessageKey, string>> {
  const ready = loaded[next];
  if (ready) return ready;
  const { zhCN } = await import('./dictionary-zh-CN');
  return (loaded['zh-CN'] = zhCN);
}

let latest: Locale = 'en';

/**
 * Switches the UI to `next` once its dictionary is loaded (a chunk of its own for any language but English), so text
 * never shows a key or a mix of languages. When called again before a load ends, the last call wins.
 */
export async function setLocale(next: Locale): Promise<void> {
  latest = next;
  await load(next);
  if (latest === next) setLoadedLocale(next);
}

/** The browser's language, before anything renders: the page awaits this (at once for English). */
export function loadInitialLocale(): Promise<void> {
  return setLocale(browserLocale());
}

/**
 * `one` where the UI language's plural rules (Intl.PluralRules) say "one" for `count`, else `other`: English says
 * "1 tool call", Chinese has one form for every count. No string says "(s)".
 */
export function plural(count: number, one: MessageKey, other: MessageKey): MessageKey {
  return new Intl.PluralRules(locale()).select(count) === 'one' ? one : other;
}

/**
 * Looks a UI string up in the current dictionary, filling `{name}` placeholders from `params`. Only known keys compile;
 * a key built at run time must come from a typed map (code → key), not a template string.
 */
export function t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  const template = (loaded[locale()] ?? english)[key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
