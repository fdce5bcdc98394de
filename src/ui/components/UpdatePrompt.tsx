import { createEffect, onCleanup, Show } from 'solid-js';
import { useRegisterSW } from 'virtual:pwa-register/solid';
import { t } from '../i18n/i18n';

const OFFLINE_NOTE_MS = 6000;

/**
 * The service worker's two messages: "A new version is ready" with "Reload to update" (the new
 * version waits until the user agrees), and a one-time "Ready to work offline" note.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisterError(error: unknown) {
      console.error('Parley: service worker registration failed', error);
    },
  });

  // workbox-window reloads only when the page was controlled as it registered; a first visit's tab was not, and with
  // clientsClaim the new worker would take it over silently, mixing versions. Reload on the switch ourselves.
  async function reloadToUpdate() {
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    await updateServiceWorker(true);
    // Also tell the waiting worker directly: the helper above asks only the worker workbox-window knows of.
    (await navigator.serviceWorker.getRegistration())?.waiting?.postMessage({ type: 'SKIP_WAITING' });
  }

  createEffect(() => {
    if (!offlineReady()) return;
    const timer = setTimeout(() => setOfflineReady(false), OFFLINE_NOTE_MS);
    onCleanup(() => clearTimeout(timer));
  });

  return (
    <>
      <Show when={needRefresh()}>
        <div class="banner update-banner" role="status">
          <span>{t('update.ready')}</span>
          <button type="button" class="button primary small" onClick={() => void reloadToUpdate()}>
            {t('update.reload')}
          </button>
          <button type="button" class="button small" onClick={() => setNeedRefresh(false)}>
            {t('update.later')}
          </button>
        </div>
      </Show>
      <Show when={offlineReady() && !needRefresh()}>
        <div class="banner offline-banner" role="status">
          <span>{t('update.offlineReady')}</span>
          <button type="button" class="button small" aria-label={t('banner.dismiss')} onClick={() => setOfflineReady(false)}>
            ×
          </button>
        </div>
      </Show>
    </>
  );
}
