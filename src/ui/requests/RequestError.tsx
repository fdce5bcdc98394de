import { Show } from 'solid-js';
import type { ErrorWords } from '../common/error-words';
import { ErrorDetail } from '../common/ErrorDetail';

/** Why a resolution was refused, beside the controls: the sentence, and the checker's own words (which field) open. */
export function RequestError(props: { error: ErrorWords | undefined }) {
  return (
    <Show when={props.error}>
      {(shown) => (
        <div role="alert" class="approval__error">
          {shown().text}
          <ErrorDetail detail={shown().detail} open />
        </div>
      )}
    </Show>
  );
}
