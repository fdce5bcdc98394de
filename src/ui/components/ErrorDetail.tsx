import { Show } from 'solid-js';
import { t } from '../i18n/i18n';

/**
 * What the worker or the provider said in its own words (often English: a status, a URL, what to allow), folded
 * away under "Details" so the sentence in the UI's language stays the message. `open` when the detail is what the
 * user must act on (a script's parse error).
 */
export function ErrorDetail(props: { detail: string | undefined; open?: boolean }) {
  return (
    <Show when={props.detail}>
      {(detail) => (
        <details class="error-details" open={props.open ?? false}>
          <summary>{t('error.details')}</summary>
          <span class="error-details__text">{detail()}</span>
        </details>
      )}
    </Show>
  );
}
