import { render } from 'solid-js/web';
import { agentWorker } from './agent-worker';
import { afterFirstPaint } from './ui/shell/after-first-paint';
import { createWorkerClient } from './ui/state/channel';
import { App } from './ui/shell/App';
import './ui/styles.css';
import { applyTheme } from './ui/theme';
import { loadInitialLocale } from './ui/i18n/i18n';
import { shellAction } from './ui/shell/shell-action';

applyTheme();

const client = createWorkerClient(agentWorker);

// Chromium tells pages, not workers, when the network comes back: pass it on so waiting runs resume at once.
window.addEventListener('online', () => void client.send({ type: 'network.online' }).catch(() => undefined));

// Ask once that the browser not evict our IndexedDB under storage pressure; a refusal changes nothing.
afterFirstPaint(() => void navigator.storage?.persist?.().catch(() => false));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A Chinese browser's dictionary is a chunk of its own: the first frame is already in Chinese (English: no wait).
// Not a top-level await: one anywhere in the page's modules turns off the bundler's merging of shared chunks, and the
// first load was twenty small files, six at a time from an HTTP/1.1 server.
void loadInitialLocale().then(() => mount(root));

/**
 * index.html's app shell (ui/shell) gives way to the app: the focus on one of its buttons moves to the app's, and a
 * click made on it meanwhile is done now (the shell's script kept the selector of the app's matching button).
 */
function mount(root: HTMLElement): void {
  const shell = root.querySelector<HTMLElement>('.app-shell')?.dataset;
  const focused = document.activeElement?.closest('.app-shell button');
  const shellFocus = focused ? shellAction(focused) : undefined;
  root.replaceChildren();
  render(() => <App client={client} />, root);
  if (shellFocus) root.querySelector<HTMLElement>(shellFocus)?.focus();
  if (shell?.action) root.querySelector<HTMLElement>(shell.action)?.click();
  else if (shell?.pressed) finishShellPress(root, shell.pressed);
}

/**
 * A press begun on the shell's button and still held: released over the app's matching button, it is that button's
 * click, which the browser does not deliver (the element pressed is gone). Released elsewhere, it is no click, as ever.
 */
function finishShellPress(root: HTMLElement, selector: string): void {
  const button = root.querySelector<HTMLElement>(selector);
  if (!button) return;
  let clicked = false;
  button.addEventListener('click', () => (clicked = true), { once: true });
  window.addEventListener(
    'pointerup',
    (event) => {
      if (!button.contains(document.elementFromPoint(event.clientX, event.clientY))) return;
      // The browser's own click, where it gives one, comes in the same task as the release: after it, look again.
      setTimeout(() => {
        if (!clicked) button.click();
      });
    },
    { once: true, capture: true },
  );
}
