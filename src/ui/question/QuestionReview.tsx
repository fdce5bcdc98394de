import { For, Show } from 'solid-js';
import type { Question, QuestionAnswer } from '../../schema/forms/question';
import { listOf, t } from '../i18n/i18n';
import { describeAnswer } from './state/answer-text';
import { isAnswered } from './state/question-form-state';

/**
 * The Review tab's content: every question's answer (or "Not answered yet"), each with a way back to change it.
 * After Submit with questions unanswered, it first says which ones (the form's foot then offers "Submit anyway").
 */
export function QuestionReview(props: {
  questions: readonly Question[];
  answers: readonly QuestionAnswer[];
  /** Headers of the questions left unanswered when Submit was pressed; empty when nothing needs confirming. */
  unansweredHeaders: readonly string[];
  noticeRef: (element: HTMLElement) => void;
  onChange: (questionIndex: number) => void;
}) {
  return (
    <>
      <Show when={props.unansweredHeaders.length > 0}>
        <p ref={props.noticeRef} tabIndex={-1} role="alert" class="question-review__unanswered">
          {t('question.unansweredNotice', { count: props.unansweredHeaders.length, headers: listOf(props.unansweredHeaders) })}
        </p>
      </Show>
      <div class="question-review">
        <p class="question-review__title">{t('question.reviewTitle')}</p>
        <ul class="question-review__list">
          <For each={props.questions}>
            {(question, index) => (
              <li class="question-review__item" data-skipped={isAnswered(props.answers[index()]) ? undefined : 'true'}>
                <span class="question-review__answer" dir="auto">
                  {t('question.summaryItem', { header: question.header, answer: describeAnswer(props.answers[index()], true) })}
                </span>
                <button
                  type="button"
                  class="question-review__change"
                  aria-label={t('question.reviewChangeLabel', { header: question.header })}
                  onClick={() => props.onChange(index())}
                >
                  {t('question.reviewChange')}
                </button>
              </li>
            )}
          </For>
        </ul>
      </div>
    </>
  );
}
