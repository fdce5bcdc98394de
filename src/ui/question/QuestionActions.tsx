import { Show } from 'solid-js';
import { t, type MessageKey } from '../i18n/i18n';
import { ErrorDetail } from '../common/ErrorDetail';

/**
 * The form's foot: the last error, "Submit answers" (the form's submit button) and "Dismiss", and the hints. While Review
 * lists the questions left unanswered after a Submit, the one submit button is "Submit anyway" (one choice, not two).
 */
export function QuestionActions(props: {
  error: { key: MessageKey; params?: Record<string, string>; detail?: string } | undefined;
  busy: boolean;
  /** Dismiss was asked for with answers filled in: the choice to discard them or keep editing. */
  confirmingDismiss: boolean;
  /** Review lists what is unanswered: the button skips those questions. */
  skipping: boolean;
  onSubmitAnyway: () => void;
  onDismiss: () => void;
  onDiscard: () => void;
  onKeepEditing: () => void;
  submitRef: (element: HTMLButtonElement) => void;
}) {
  return (
    <>
      <Show when={props.error}>
        {(shown) => (
          <>
            <p role="alert" class="question-form__error">
              {t(shown().key, shown().params)}
            </p>
            <ErrorDetail detail={shown().detail} />
          </>
        )}
      </Show>
      <div class="question-form__actions">
        <Show
          when={props.skipping}
          fallback={
            <button ref={props.submitRef} type="submit" class="question-form__submit" disabled={props.busy}>
              {t('question.submit')}
            </button>
          }
        >
          {/* Not a submit button: Enter (and the form's own submit) still asks first; only this click skips. */}
          <button ref={props.submitRef} type="button" class="question-form__submit" disabled={props.busy} onClick={() => props.onSubmitAnyway()}>
            {t('question.submitAnyway')}
          </button>
        </Show>
        <button type="button" class="question-form__dismiss" disabled={props.busy} onClick={() => props.onDismiss()}>
          {t('question.dismiss')}
        </button>
      </div>
      <Show when={props.confirmingDismiss}>
        <div role="alert" class="question-form__confirm">
          <p>{t('question.discardConfirm')}</p>
          <button
            ref={(element) => queueMicrotask(() => element.focus())}
            type="button"
            class="question-form__discard"
            disabled={props.busy}
            onClick={() => props.onDiscard()}
          >
            {t('question.discard')}
          </button>
          <button type="button" class="question-form__keep" disabled={props.busy} onClick={() => props.onKeepEditing()}>
            {t('question.keepEditing')}
          </button>
        </div>
      </Show>
      <p class="question-form__hint">{t('question.chatHint')}</p>
      <p class="question-form__keys">{t('question.keysHint')}</p>
    </>
  );
}
