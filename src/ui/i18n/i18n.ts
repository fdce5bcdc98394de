import { createSignal } from 'solid-js';
import { dictionary, type Locale } from './dictionary';

const [locale, setLocale] = createSignal<Locale>(pickInitialLocale());

/** The current UI locale; a signal, so text re-renders when it changes. */
export { locale, setLocale };

function pickInitialLocale(): Locale {
  const preferred = typeof navigator === 'undefined' ? 'en' : navigator.language;
  return preferred.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/**
 * Looks a UI string up in the one dictionary, filling `{name}` placeholders from `params`.
 * Falls back to English, then to the key itself, so a missing string is visible rather than blank.
 */
export function t(key: string, params?: Record<string, string | number>): string {
  const template = dictionary[locale()][key] ?? dictionary.en[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
