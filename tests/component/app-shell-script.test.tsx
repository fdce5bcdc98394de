import { afterEach, describe, expect, it } from 'vitest';
import shellScript from '../../src/ui/app-shell-script.js?raw';
import { parseRoute } from '../../src/ui/hash-route';
import { browserLocale } from '../../src/ui/i18n/i18n';
import { chooseTheme, THEME_KEY } from '../../src/ui/theme';

// index.html's app-shell script (app-shell-script.js) is plain script inlined at build time: it cannot import the app's
// route parser, theme key or language choice, so it restates them. These hold the two in step.

/** A shell like app-shell.ts writes, reduced to what the script reads and writes. */
function runShellScript() {
  document.body.innerHTML = '<div class="app-shell"><button class="nav-toggle" aria-expanded="false"></button><span data-zh="设置">Settings</span></div>';
  new Function(shellScript)();
  return document.querySelector<HTMLElement>('.app-shell')!;
}

const language = Object.getOwnPropertyDescriptor(Navigator.prototype, 'language');

afterEach(() => {
  window.location.hash = '';
  localStorage.clear();
  delete document.documentElement.dataset.theme;
  document.documentElement.lang = 'en';
  if (language) Object.defineProperty(Navigator.prototype, 'language', language);
});

describe("the app shell's script", () => {
  it('gives the shell the layout of the route the app will show', () => {
    const hashes = ['', '#/', '#/c/abc', '#/c/a%20b', '#/c/%E0%A4%A', '#/c/', '#/c/abc/more', '#/settings', '#/settings?tool=mcp__a__b', '#/settings?tool=a&b', '#/settings/x', '#/nowhere'];
    for (const hash of hashes) {
      window.location.hash = hash;
      const shell = runShellScript();
      expect({ hash, route: shell.dataset.route }).toEqual({ hash, route: parseRoute(window.location.hash).name });
      // The list is open on home (a phone shows it), closed elsewhere, as the app's navigation toggle says.
      expect(shell.querySelector('.nav-toggle')!.getAttribute('aria-expanded')).toBe(String(parseRoute(window.location.hash).name === 'home'));
    }
  });

  it('paints the theme the app applies, from the same stored key', () => {
    for (const theme of ['dark', 'light', 'system'] as const) {
      chooseTheme(theme);
      // chooseTheme applies it to this page too: the script must find it in storage, not on the page.
      delete document.documentElement.dataset.theme;
      runShellScript();
      expect({ theme, painted: document.documentElement.dataset.theme }).toEqual({ theme, painted: theme === 'system' ? undefined : theme });
    }
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
  });

  it("speaks the language the app will speak, from the browser's", () => {
    for (const preferred of ['zh-CN', 'zh-TW', 'zh', 'ZH-hk', 'en-US', 'fr', 'ja']) {
      Object.defineProperty(Navigator.prototype, 'language', { configurable: true, get: () => preferred });
      document.documentElement.lang = 'en';
      const shell = runShellScript();
      const chinese = browserLocale() === 'zh-CN';
      expect({ preferred, lang: document.documentElement.lang, text: shell.querySelector('[data-zh]')!.textContent }).toEqual({
        preferred,
        lang: chinese ? 'zh-CN' : 'en',
        text: chinese ? '设置' : 'Settings',
      });
    }
  });

  it('framed by another page, puts one line in the shell\'s place: a link to Parley in its own tab, and no control', () => {
    for (const preferred of ['en-US', 'zh-CN']) {
      const frame = document.createElement('iframe');
      document.body.replaceChildren(frame);
      const framed = frame.contentWindow as Window & typeof globalThis;
      Object.defineProperty(framed.navigator, 'language', { configurable: true, get: () => preferred });
      // As app-shell.ts writes it (e2e/framing.spec.ts looks at the built page's).
      framed.document.body.innerHTML =
        '<div id="root"><div class="app-shell"><button class="nav-toggle"></button><input type="search"></div>' +
        '<template class="framed-refusal-template"><p class="framed-refusal"><a href="/" target="_blank" rel="noopener" data-zh="在单独的标签页中打开 Parley">Open Parley in its own tab</a></p></template></div>';
      new framed.Function(shellScript)();
      const root = framed.document.getElementById('root')!;
      expect(framed.top).not.toBe(framed);
      expect(root.querySelectorAll('button, input, .app-shell')).toHaveLength(0);
      const link = root.querySelector('a')!;
      expect({ text: root.textContent, href: link.href, target: link.target, rel: link.rel }).toEqual({
        text: preferred === 'zh-CN' ? '在单独的标签页中打开 Parley' : 'Open Parley in its own tab',
        href: framed.location.href,
        target: '_blank',
        rel: 'noopener',
      });
    }
  });
});
