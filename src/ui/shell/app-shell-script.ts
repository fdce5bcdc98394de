// The app shell's own script, compiled at build time and inlined after the shell in index.html, allowed by its hash in
// the Content-Security-Policy (scripts/app-shell-plugin.ts). It runs as the page is parsed, before the first paint, with
// the app's own rules: the stored theme (theme.ts), the route (hash-route.ts), the browser's language (browser-locale.ts).
import { parseRoute } from '../hash-route';
import { browserLocale } from '../i18n/browser-locale';
import { applyTheme } from '../theme';
import { shellAction } from './shell-action';

try {
  applyTheme();
} catch {
  // no storage (a locked-down browser): the system's theme
}
const root = document.getElementById('root');
if (root?.querySelector('.app-shell')) showShell(root);

function showShell(root: HTMLElement): void {
  if (browserLocale() === 'zh-CN') {
    document.documentElement.lang = 'zh-CN';
    const chinese = root.querySelector<HTMLTemplateElement>('template.app-shell-zh-CN');
    if (chinese) root.replaceChildren(chinese.content.cloneNode(true));
  }
  const shell = root.querySelector<HTMLElement>('.app-shell')!;
  if (isFramed()) {
    // Another page frames Parley (clickjacking: its own button drawn over our Allow): no control of ours is ever shown
    // there, only a link to Parley in a tab of its own. boot.ts starts neither the worker nor the app.
    const template = root.querySelector<HTMLTemplateElement>('template.framed-refusal-template');
    const refusal = (template?.content.firstElementChild?.cloneNode(true) as HTMLElement | undefined) ?? document.createElement('p');
    const link = refusal.querySelector('a');
    if (link) link.href = location.href;
    shell.replaceWith(refusal);
    return;
  }
  const route = parseRoute(location.hash).name;
  shell.dataset.route = route;
  // The list is open on home (a phone shows it), closed elsewhere, as the app's navigation toggle says.
  shell.querySelector('.nav-toggle')?.setAttribute('aria-expanded', String(route === 'home'));
  // The last click on one of the shell's buttons: the app clicks its own matching button once it runs (main.tsx).
  shell.addEventListener('click', (event) => {
    const button = (event.target as Element).closest('button');
    if (button) shell.dataset.action = shellAction(button);
  });
  // A press begun here may end on the app's button, once the app has taken the shell's place: the browser then clicks
  // neither (the press's element is gone), so the app finishes that press itself (main.tsx).
  shell.addEventListener('pointerdown', (event) => {
    const button = (event.target as Element).closest('button');
    if (button) shell.dataset.pressed = shellAction(button);
  });
  for (const type of ['pointerup', 'pointercancel']) window.addEventListener(type, () => delete shell.dataset.pressed, true);
}

function isFramed(): boolean {
  try {
    return window.top !== window.self;
  } catch {
    return true;
  }
}
