import { For, Show } from 'solid-js';
import type { Toast } from '../error-report';
import { t } from '../i18n/i18n';

/** The worker could not write: say so plainly, and keep it up until dismissed. */
export function StorageErrorBanner(props: { message: string | undefined; onDismiss(): void }) {
  return (
    <Show when={props.message}>
      {(message) => (
        <div class="banner storage-banner" role="alert">
          <span>
            {t('storage.error')} <span class="banner-detail">{message()}</span>
          </span>
          <button type="button" class="button small" aria-label={t('banner.dismiss')} onClick={() => props.onDismiss()}>
            ×
          </button>
        </div>
      )}
    </Show>
  );
}

/** A newer Parley upgraded the database in another tab: this tab can do nothing useful until it reloads. */
export function OutdatedBanner(props: { shown: boolean }) {
  return (
    <Show when={props.shown}>
      <div class="banner outdated-banner" role="alert">
        <span>{t('outdated.text')}</span>
        <button type="button" class="button primary small" onClick={() => window.location.reload()}>
          {t('outdated.reload')}
        </button>
      </div>
    </Show>
  );
}

/** This tab's worker died and a new one took over: say so, since a reply it was writing was interrupted. */
export function WorkerRestartedBanner(props: { shown: boolean; onDismiss(): void }) {
  return (
    <Show when={props.shown}>
      <div class="banner restart-banner" role="status">
        <span>{t('worker.restarted')}</span>
        <button type="button" class="button small" aria-label={t('banner.dismiss')} onClick={() => props.onDismiss()}>
          ×
        </button>
      </div>
    </Show>
  );
}

/** Failed commands, one alert each, newest last. */
export function ErrorToasts(props: { toasts: readonly Toast[]; onDismiss(id: number): void }) {
  return (
    <div class="toasts">
      <For each={props.toasts}>
        {(toast) => (
          <div class="toast" role="alert">
            <span>{toast.text}</span>
            <button type="button" class="button small" aria-label={t('banner.dismiss')} onClick={() => props.onDismiss(toast.id)}>
              ×
            </button>
          </div>
        )}
      </For>
    </div>
  );
}
