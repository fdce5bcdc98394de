import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// index.html's app shell as the build makes it: the markup rendered from the app's components, and the inline script
// compiled from the app's route parser, theme and language rule. Each test runs that script on that markup in a page.

/** What scripts/app-shell-plugin.ts makes (a build-time module of the node project, hence loaded by its path). */
interface AppShell {
  html: string;
  script: string;
}
const PLUGIN = '../../scripts/app-shell-plugin.ts';

let shell: AppShell;
beforeAll(async () => {
  shell = await ((await import(/* @vite-ignore */ PLUGIN)) as { appShell(): Promise<AppShell> }).appShell();
}, 120_000);

const language = Object.getOwnPropertyDescriptor(Navigator.prototype, 'language');
/** A page as a fresh load finds it. */
function reset() {
  window.location.hash = '';
  localStorage.clear();
  delete document.documentElement.dataset.theme;
  document.documentElement.lang = 'en';
  if (language) Object.defineProperty(Navigator.prototype, 'language', language);
}
afterEach(reset);

/** This page holding the built shell, its script run after it as the parser runs it, at `hash`, in a language and a stored theme. */
function page(options: { hash?: string; language?: string; theme?: string } = {}) {
  reset();
  window.location.hash = options.hash ?? '';
  Object.defineProperty(Navigator.prototype, 'language', { configurable: true, get: () => options.language ?? 'en-US' });
  if (options.theme) localStorage.setItem('parley-theme', options.theme);
  document.body.innerHTML = `<div id="root">${shell.html}</div>`;
  new Function(shell.script)();
  return { document, shell: document.querySelector<HTMLElement>('.app-shell')! };
}

describe('the app shell', () => {
  it('is the app\'s first screen: the bar, the navigation, "New conversation" and a search field that waits', () => {
    const { document } = page();
    const names = [...document.querySelectorAll('#root button, #root nav, #root input')].map((element) => element.getAttribute('aria-label') ?? element.textContent);
    expect(names).toEqual(['Conversations', 'Settings', 'Conversations', 'New conversation', 'Search conversations']);
    expect(document.querySelector<HTMLInputElement>('input[type="search"]')!.disabled).toBe(true);
  });

  it('has the layout of the route the app will show, its list open only on home', () => {
    const expected: Record<string, string> = { '': 'home', '#/': 'home', '#/c/abc': 'conversation', '#/c/%E0%A4%A': 'home', '#/settings': 'settings', '#/settings?tool=mcp__a__b': 'settings', '#/nowhere': 'home' };
    for (const [hash, route] of Object.entries(expected)) {
      const { shell } = page({ hash });
      expect({ hash, route: shell.dataset.route, expanded: shell.querySelector('.nav-toggle')!.getAttribute('aria-expanded') }).toEqual({ hash, route, expanded: String(route === 'home') });
    }
  });

  it('is painted in the stored theme, the system\'s when none is stored', () => {
    expect(page({ theme: 'dark' }).document.documentElement.dataset.theme).toBe('dark');
    expect(page({ theme: 'light' }).document.documentElement.dataset.theme).toBe('light');
    expect(page().document.documentElement.dataset.theme).toBeUndefined();
  });

  it('speaks the browser\'s language', () => {
    for (const [language, lang, words] of [['zh-CN', 'zh-CN', '新建对话'], ['zh-TW', 'zh-CN', '新建对话'], ['en-US', 'en', 'New conversation'], ['fr', 'en', 'New conversation']]) {
      const { document } = page({ language });
      expect({ language, lang: document.documentElement.lang, words: document.querySelector('.new-conversation')!.textContent }).toEqual({ language, lang, words });
      expect(document.querySelectorAll('.app-shell')).toHaveLength(1);
    }
  });

  it('keeps the last click on one of its buttons as the selector of the app\'s matching button', () => {
    const { document, shell } = page();
    document.querySelector<HTMLElement>('.settings-button svg')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(shell.dataset.action).toBe('button.button.settings-button');
    document.querySelector<HTMLButtonElement>('.new-conversation')!.click();
    expect(shell.dataset.action).toBe('button.button.primary.new-conversation');
  });

  it('framed by another page, puts one line in the shell\'s place: a link to Parley in its own tab, and no control', () => {
    for (const [preferred, text] of [['en-US', 'Open Parley in its own tab'], ['zh-CN', '在单独的标签页中打开 Parley']]) {
      const frame = document.createElement('iframe');
      document.body.replaceChildren(frame);
      const framed = frame.contentWindow as Window & typeof globalThis;
      Object.defineProperty(framed.navigator, 'language', { configurable: true, get: () => preferred });
      framed.document.body.innerHTML = `<div id="root">${shell.html}</div>`;
      new framed.Function(shell.script)();
      const root = framed.document.getElementById('root')!;
      expect(framed.top).not.toBe(framed);
      expect(root.querySelectorAll('button, input, .app-shell')).toHaveLength(0);
      const link = root.querySelector('a')!;
      expect({ text: root.querySelector('.framed-refusal')!.textContent, href: link.href, target: link.target }).toEqual({ text, href: framed.location.href, target: '_blank' });
    }
  });
});
