import { createEffect, createSignal, onCleanup, Show } from 'solid-js';
import { useRegisterSW } from 'virtual:pwa-register/solid';
import { afterFirstPaint } from './after-first-paint';
import { t } from '../i18n/i18n';

const OFFLINE_NOTE_MS = 6000;

/** The service worker's state as the shell shows it: a waiting new version, and the one-time offline note. */
interface ServiceWorkerPrompt {
  needRefresh(): boolean;
  offlineReady(): boolean;
  reloadToUpdate(): Promise<void>;
  later(): void;
  dismissOfflineNote(): void;
}

/**
 * Registers the service worker once the first screen is painted (its code, workbox-window, is not part of that screen),
 * and hides the offline note after a few seconds. Call once, in the shell.
 */
export function createServiceWorkerPrompt(): ServiceWorkerPrompt {
  const [registration, setRegistration] = createSignal<ReturnType<typeof useRegisterSW>>();
  afterFirstPaint(() =>
    setRegistration(
      useRegisterSW({
        onRegisterError(error: unknown) {
          console.error('Parley: service worker registration failed', error);
        },
        onRegisteredSW(_url, registration) {
          if (registration) watchForUpdates(registration, () => setNeedRefresh(true));
        },
      }),
    ),
  );
  const needRefresh = () => registration()?.needRefresh[0]() ?? false;
  const setNeedRefresh = (value: boolean) => registration()?.needRefresh[1](value);
  const offlineReady = () => registration()?.offlineReady[0]() ?? false;
  const setOfflineReady = (value: boolean) => registration()?.offlineReady[1](value);
  const updateServiceWorker = async (reloadPage?: boolean) => registration()?.updateServiceWorker(reloadPage);

  createEffect(() => {
    if (!offlineReady()) return;
    const timer = setTimeout(() => setOfflineReady(false), OFFLINE_NOTE_MS);
    onCleanup(() => clearTimeout(timer));
  });

  return {
    needRefresh,
    offlineReady: () => offlineReady() && !needRefresh(),
    // workbox-window reloads only when the page was controlled as it registered; a first visit's tab was not, and with
    // clientsClaim the new worker would take it over silently, mixing versions. Reload on the switch ourselves.
    async reloadToUpdate() {
      navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
      await updateServiceWorker(true);
      // Also tell the waiting worker directly: the helper above asks only the worker workbox-window knows of.
      (await navigator.serviceWorker.getRegistration())?.waiting?.postMessage({ type: 'SKIP_WAITING' });
    },
    later: () => setNeedRefresh(false),
    dismissOfflineNote: () => setOfflineReady(false),
  };
}

/**
 * Calls `ready` when a new version has installed and waits while this page runs the old one. workbox-window tells of
 * most, but not of an update the browser found before it listened (its own check as a returning visit loads), and it
 * tells of one it takes for another page's (found long after it registered, or a second one) only by its own timing:
 * on a loaded machine the banner never came. Watched here as well, from the registration itself.
 */
function watchForUpdates(registration: ServiceWorkerRegistration, ready: () => void): void {
  const watch = (worker: ServiceWorker | null) => {
    // Not controlled yet: the first install, which the offline note tells of.
    if (!worker || !navigator.serviceWorker.controller) return;
    if (worker.state === 'installed') return ready();
    worker.addEventListener('statechange', () => worker.state === 'installed' && ready());
  };
  watch(registration.waiting);
  watch(registration.installing);
  registration.addEventListener('updatefound', () => watch(registration.installing));
}

/** "A new version is ready" with "Reload to update": the new version waits until the user agrees. */
export function UpdatePrompt(props: { prompt: ServiceWorkerPrompt }) {
  return (
    <Show when={props.prompt.needRefresh()}>
      <div class="banner update-banner" role="status">
        <span>{t('update.ready')}</span>
        <button type="button" class="button primary small" onClick={() => void props.prompt.reloadToUpdate()}>
          {t('update.reload')}
        </button>
        <button type="button" class="button small" onClick={() => props.prompt.later()}>
          {t('update.later')}
        </button>
      </div>
    </Show>
  );
}

/**
 * The one-time "Ready to work offline" note. It lives in the app bar, in the room beside the brand, so it
 * neither moves the page when it comes and goes nor covers a control (on a phone it stands in for the brand).
 */
export function OfflineNote(props: { prompt: ServiceWorkerPrompt }) {
  return (
    <Show when={props.prompt.offlineReady()}>
      <div class="offline-note" role="status">
        <span class="offline-note-text">{t('update.offlineReady')}</span>
        <button type="button" class="button small icon-button" aria-label={t('banner.dismiss')} onClick={() => props.prompt.dismissOfflineNote()}>
          ×
        </button>
      </div>
    </Show>
  );
}
