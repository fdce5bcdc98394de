import { For, Show } from 'solid-js';
import type { QuestionResolution } from '../../schema/messages/blocks';
import type { Question, QuestionAnswer } from '../../schema/forms/question';
import type { DeviceRef } from '../../schema/sync/device';
import { deviceName } from '../sync/device-name';
import { formatMoment, locale, t, type MessageKey } from '../i18n/i18n';
import { describeAnswer } from './state/answer-text';

const RESOLUTION_KEYS: Record<QuestionResolution, MessageKey> = {
  answered: 'question.summaryAnswered',
  chat: 'question.summaryChat',
  dismissed: 'question.summaryDismissed',
  stopped: 'question.summaryStopped',
};

/**
 * The compact record of a resolved question: its outcome word ("Dismissed", "Answered in chat", "Stopped",
 * "Answered"), the time, and for answered questions one "header: answer" line per question.
 */
export function QuestionSummary(props: {
  questions: readonly Question[];
  resolution: QuestionResolution;
  answers?: readonly QuestionAnswer[] | undefined;
  resolvedAt?: number | undefined;
  /** What was filled in but not sent (the user replied in chat instead). */
  unsent?: readonly QuestionAnswer[] | undefined;
  /**
   * Set when another tab answered or dismissed the question while this one showed it: what this tab had filled in,
   * kept in view and marked as not used.
   */
  elsewhere?: readonly QuestionAnswer[] | undefined;
  /** Set when it was decided on another device (sync): the summary names it, whether or not this tab watched. */
  decidedOn?: DeviceRef | undefined;
}) {
  const resolvedAt = () => props.resolvedAt;
  const byUser = () => props.resolution === 'answered' || props.resolution === 'dismissed';
  const onDevice = () => (props.decidedOn !== undefined && byUser() ? props.decidedOn : undefined);
  const inAnotherTab = () => props.elsewhere !== undefined && byUser();
  const resolutionText = () => {
    const device = onDevice();
    if (device) return t(props.resolution === 'answered' ? 'question.summaryAnsweredOn' : 'question.summaryDismissedOn', { device: deviceName(device) });
    return inAnotherTab() ? t(props.resolution === 'answered' ? 'question.summaryAnsweredElsewhere' : 'question.summaryDismissedElsewhere') : t(RESOLUTION_KEYS[props.resolution]);
  };
  /** "Header: answer" for each question the given answers fill in; skipped ones are left out. */
  const filledInText = (answers: readonly QuestionAnswer[]) =>
    props.questions
      .flatMap((question, index) => {
        const answer = answers[index];
        return answer && (answer.selected.length > 0 || answer.other?.trim()) ? [t('question.summaryItem', { header: question.header, answer: describeAnswer(answer) })] : [];
      })
      .join('; ');
  const notUsedText = () => {
    if (!inAnotherTab() || !props.elsewhere) return '';
    // Another device sent the very answers this one had: nothing of this device's went unused.
    if (onDevice() && props.resolution === 'answered' && sameAnswers(props.elsewhere, props.answers)) return '';
    return filledInText(props.elsewhere);
  };
  return (
    <section class="question-summary" aria-label={t('question.summaryLabel')} data-resolution={props.resolution}>
      <p class="question-summary__outcome">
        <span class="question-summary__resolution">{resolutionText()}</span>
        <Show when={resolvedAt()}>
          {(timestamp) => (
            <time class="question-summary__time" datetime={new Date(timestamp()).toISOString()}>
              {formatMoment(timestamp(), locale())}
            </time>
          )}
        </Show>
      </p>
      <Show when={props.resolution === 'chat' && props.unsent}>
        {(unsent) => (
          <p class="question-summary__unsent" dir="auto">
            {t('question.unsentAnswers', { answers: filledInText(unsent()) })}
          </p>
        )}
      </Show>
      <Show when={props.resolution === 'answered'}>
        <ul class="question-summary__answers">
          <For each={props.questions}>
            {(question, index) => (
              <li dir="auto">
                {t('question.summaryItem', { header: question.header, answer: describeAnswer(props.answers?.[index()]) })}
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={notUsedText()}>
        {(text) => (
          <p class="question-summary__unsent" data-not-used="true" dir="auto">
            {t(onDevice() ? 'question.notUsedOnDevice' : 'question.notUsedAnswers', { answers: text() })}
          </p>
        )}
      </Show>
    </section>
  );
}

/** Whether two sets of answers say the same (the typed text compared as trimmed). */
function sameAnswers(left: readonly QuestionAnswer[], right: readonly QuestionAnswer[] | undefined): boolean {
  if (!right || left.length !== right.length) return false;
  return left.every((answer, index) => {
    const other = right[index];
    return other !== undefined && JSON.stringify([...answer.selected].sort()) === JSON.stringify([...other.selected].sort()) && (answer.other?.trim() ?? '') === (other.other?.trim() ?? '');
  });
}
