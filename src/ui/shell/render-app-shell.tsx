// Run at build time only, in Node (scripts/app-shell-plugin.ts): Solid's server rendering, never bundled into the app.
import { renderToString } from 'solid-js/web';
import { setLocale, type Locale } from '../i18n/i18n';
import { AppShell, FramedRefusal } from './AppShell';

/** The shell and the framed page's refusal, in one language. */
async function renderIn(locale: Locale): Promise<string> {
  await setLocale(locale);
  const refusal = renderToString(() => <FramedRefusal />);
  return `${renderToString(() => <AppShell />)}<template class="framed-refusal-template">${refusal}</template>`;
}

/**
 * index.html's #root: the shell in English, and in a template the same in Chinese, which the shell's script puts in
 * its place in a Chinese browser (app-shell-script.ts). Rendered as this module loads: the build's module runner
 * closes once the import is done, and the Chinese dictionary is a dynamic import.
 */
export const appShellHtml = `${await renderIn('en')}<template class="app-shell-zh-CN">${await renderIn('zh-CN')}</template>`;
