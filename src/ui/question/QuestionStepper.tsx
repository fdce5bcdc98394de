import { For, Show } from 'solid-js';
import type { Question } from '../../schema/forms/question';
import { t } from '../i18n/i18n';
import { NextIcon, PreviousIcon } from '../common/icons';

/**
 * The tabs of a narrow screen: one row that never wraps, "2 of 4" and the question's header between
 * "Previous question" and "Next question", with a mark per question (✓ once answered). After the last
 * question, Next goes to Review. The position is a live region, so a screen reader hears each step.
 */
export function QuestionStepper(props: {
  questions: readonly Question[];
  activeTab: number;
  isAnswered: (questionIndex: number) => boolean;
  onStep: (tab: number) => void;
}) {
  const reviewTab = () => props.questions.length;
  const onReview = () => props.activeTab === reviewTab();
  const current = () => props.questions[props.activeTab];
  let previousButton: HTMLButtonElement | undefined;
  let nextButton: HTMLButtonElement | undefined;

  function step(tab: number, pressed: HTMLButtonElement | undefined, other: HTMLButtonElement | undefined): void {
    props.onStep(tab);
    // A button that just became disabled (first question, Review) would drop the focus on <body>.
    if (pressed?.disabled && document.activeElement === pressed) other?.focus({ preventScroll: true });
  }

  return (
    <div class="question-stepper" role="group" aria-label={t('question.stepperLabel')}>
      <button
        ref={previousButton}
        type="button"
        class="question-stepper__button"
        disabled={props.activeTab === 0}
        onClick={() => step(props.activeTab - 1, previousButton, nextButton)}
      >
        <PreviousIcon />
        <span class="visually-hidden">{t('question.stepPrevious')}</span>
      </button>
      <div class="question-stepper__position">
        <p class="question-stepper__text" aria-live="polite">
          <Show when={current()} fallback={<span class="question-stepper__count">{t('question.reviewTab')}</span>}>
            {(question) => (
              <>
                <span class="question-stepper__count">
                  {t('question.stepPosition', { current: props.activeTab + 1, count: props.questions.length })}
                </span>{' '}
                <span class="question-stepper__header" dir="auto">
                  {question().header}
                </span>
                <Show when={props.isAnswered(props.activeTab)}>
                  <span class="visually-hidden">, {t('question.answeredMark')}</span>
                </Show>
              </>
            )}
          </Show>
        </p>
        <ol class="question-stepper__marks" aria-hidden="true">
          <For each={props.questions}>
            {(_question, index) => (
              <li
                class="question-stepper__mark"
                data-current={props.activeTab === index() ? 'true' : undefined}
                data-answered={props.isAnswered(index()) ? 'true' : undefined}
              >
                {props.isAnswered(index()) ? '✓' : ''}
              </li>
            )}
          </For>
        </ol>
      </div>
      <button
        ref={nextButton}
        type="button"
        class="question-stepper__button"
        disabled={onReview()}
        onClick={() => step(props.activeTab + 1, nextButton, previousButton)}
      >
        <NextIcon />
        <span class="visually-hidden">{t('question.stepNext')}</span>
      </button>
    </div>
  );
}
