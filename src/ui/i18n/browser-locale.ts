import type { Locale } from './translations';

/** The browser's language as a locale of ours: the app's first language, and the app shell's (shell/app-shell-script.ts). */
export function browserLocale(): Locale {
  const preferred = typeof navigator === 'undefined' ? 'en' : navigator.language;
  return preferred.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}
