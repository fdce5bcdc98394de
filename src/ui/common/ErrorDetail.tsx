import { Show, type JSX } from 'solid-js';
import { t } from '../i18n/i18n';

/**
 * What the worker or the provider said in its own words (often English: a status, a URL, what to allow), folded
 * away under "Details" so the sentence in the UI's language stays the message. `open` when the detail is what the
 * user must act on (a script's parse error). `text` shows the detail otherwise than as one span (a message's error block
 * cuts it, as every text of a message; importing the cut here would move it into a chunk the first load fetches apart).
 */
export function ErrorDetail(props: { detail: string | undefined; open?: boolean; text?: (detail: string) => JSX.Element }) {
  return (
    <Show when={props.detail}>
      {(detail) => (
        <details class="error-details" open={props.open ?? false}>
          <summary>{t('error.details')}</summary>
          {props.text?.(detail()) ?? <span class="error-details__text">{detail()}</span>}
        </details>
      )}
    </Show>
  );
}
