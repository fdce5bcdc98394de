import { Show } from 'solid-js';
import { t } from '../i18n/i18n';
import { LongText } from './LongText';

/**
 * What the worker or the provider said in its own words (often English: a status, a URL, what to allow), folded
 * away under "Details" so the sentence in the UI's language stays the message. `open` when the detail is what the
 * user must act on (a script's parse error). Cut as every text is: an imported error block can hold any length.
 */
export function ErrorDetail(props: { detail: string | undefined; open?: boolean }) {
  return (
    <Show when={props.detail}>
      {(detail) => (
        <details class="error-details" open={props.open ?? false}>
          <summary>{t('error.details')}</summary>
          <LongText class="error-details__text" text={detail()} />
        </details>
      )}
    </Show>
  );
}
