import { createEffect, createSignal, onCleanup, Show } from 'solid-js';
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
 * Registers the service worker once the first screen is painted, and hides the offline note after a few seconds. Call
 * once, in the shell. The browser's own API, not workbox-window's (2.1 KiB gzip more for every first visit): a first
 * install ends in the offline note, a version waiting while this page runs the old one in the update banner.
 */
export function createServiceWorkerPrompt(): ServiceWorkerPrompt {
  const [needRefresh, setNeedRefresh] = createSignal(false);
  const [offlineReady, setOfflineReady] = createSignal(false);
  afterFirstPaint(() => registerServiceWorker({ offlineReady: () => setOfflineReady(true), needRefresh: () => setNeedRefresh(true) }));

  createEffect(() => {
    if (!offlineReady()) return;
    const timer = setTimeout(() => setOfflineReady(false), OFFLINE_NOTE_MS);
    onCleanup(() => clearTimeout(timer));
  });

  return {
    needRefresh,
    offlineReady: () => offlineReady() && !needRefresh(),
    // A first visit's tab was not controlled as it registered, and with clientsClaim the new worker would take it over
    // silently, mixing versions: the page reloads on the switch, which the waiting worker makes when told to skip waiting.
    async reloadToUpdate() {
      navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
      (await navigator.serviceWorker.getRegistration())?.waiting?.postMessage({ type: 'SKIP_WAITING' });
    },
    later: () => setNeedRefresh(false),
    dismissOfflineNote: () => setOfflineReady(false),
  };
}

/** The build's service worker (vite-plugin-pwa writes it at the root of the app), registered where there is one. */
function registerServiceWorker(on: { offlineReady(): void; needRefresh(): void }): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // No worker controls the page yet: this registration is the first install, and its end means "works offline".
  const firstInstall = !navigator.serviceWorker.controller;
  const base = import.meta.env.BASE_URL;
  navigator.serviceWorker.register(`${base}sw.js`, { scope: base }).then(
    (registration) => {
      if (firstInstall) watchFirstInstall(registration, on.offlineReady);
      watchForUpdates(registration, on.needRefresh);
    },
    (error: unknown) => console.error('Parley: service worker registration failed', error),
  );
}

/** Calls `ready` once, when the first install's worker has installed (the whole app is precached by then). */
function watchFirstInstall(registration: ServiceWorkerRegistration, ready: () => void): void {
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    ready();
  };
  const watch = (worker: ServiceWorker | null) => {
    if (!worker) return;
    if (worker.state !== 'installing') return worker.state === 'redundant' ? undefined : tell();
    worker.addEventListener('statechange', () => worker.state !== 'redundant' && worker.state !== 'installing' && tell());
  };
  watch(registration.installing ?? registration.waiting);
  registration.addEventListener('updatefound', () => watch(registration.installing));
}

/**
 * Calls `ready` when a new version has installed and waits while this page runs the old one: one the browser found
 * before the page listened (its own check as a returning visit loads), one found later, and a second one.
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
