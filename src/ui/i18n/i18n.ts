import { createSignal } from 'solid-js';
import { dictionary, type Locale, type MessageKey } from './dictionary';

export type { Locale, MessageKey };

const [locale, setLocale] = createSignal<Locale>(pickInitialLocale());

/** The current UI locale; a signal, so text re-renders when it changes. */
export { locale, setLocale };

function pickInitialLocale(): Locale {
  const preferred = typeof navigator === 'undefined' ? 'en' : navigator.language;
  return preferred.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/**
 * Looks a UI string up in the one dictionary, filling `{name}` placeholders from `params`. Only known keys compile;
 * a key built at run time must come from a typed map (code → key), not a template string.
 */
export function t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  const template = dictionary[locale()][key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
