import { Show } from 'solid-js';
import { t } from '../../i18n/i18n';

/** The form's foot: the last error, "Submit answers" (the form's submit button) and "Dismiss", and the hints. */
export function QuestionActions(props: {
  error: { key: string; params?: Record<string, string> } | undefined;
  busy: boolean;
  onDismiss: () => void;
  submitRef: (element: HTMLButtonElement) => void;
}) {
  return (
    <>
      <Show when={props.error}>
        {(shown) => (
          <p role="alert" class="question-form__error">
            {t(shown().key, shown().params)}
          </p>
        )}
      </Show>
      <div class="question-form__actions">
        <button ref={props.submitRef} type="submit" class="question-form__submit" disabled={props.busy}>
          {t('question.submit')}
        </button>
        <button type="button" class="question-form__dismiss" disabled={props.busy} onClick={() => props.onDismiss()}>
          {t('question.dismiss')}
        </button>
      </div>
      <p class="question-form__hint">{t('question.chatHint')}</p>
      <p class="question-form__keys">{t('question.keysHint')}</p>
    </>
  );
}
