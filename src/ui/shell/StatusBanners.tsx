import { For, Show } from 'solid-js';
import type { Toast } from '../common/error-report';
import type { ErrorWords } from '../common/error-words';
import { t } from '../i18n/i18n';
import { ErrorDetail } from '../common/ErrorDetail';

/** The worker could not write: say so plainly (worded by the caller from the event), and keep it up until dismissed. */
export function StorageErrorBanner(props: { error: ErrorWords | undefined; onDismiss(): void }) {
  return (
    <Show when={props.error}>
      {(error) => (
        <div class="banner storage-banner" role="alert">
          <span>{error().text}</span>
          <ErrorDetail detail={error().detail} />
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
            <ErrorDetail detail={toast.detail} />
            <button type="button" class="button small" aria-label={t('banner.dismiss')} onClick={() => props.onDismiss(toast.id)}>
              ×
            </button>
          </div>
        )}
      </For>
    </div>
  );
}
