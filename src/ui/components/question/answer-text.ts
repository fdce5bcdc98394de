import type { QuestionAnswer } from '../../../schema/question';
import { t } from '../../i18n/i18n';
import { isAnswered } from './question-form-state';

/**
 * One answer as a line of text, for the Review tab and the resolved summary: chosen labels, then the
 * "Other" text in quotes, joined with the locale's separator; "Skipped" when nothing was chosen.
 */
export function describeAnswer(answer: QuestionAnswer | undefined): string {
  if (!answer || !isAnswered(answer)) return t('question.skipped');
  const other = answer.other?.trim();
  const parts = other ? [...answer.selected, t('question.quoted', { text: other })] : answer.selected;
  return parts.join(t('question.separator'));
}

/** A resolution time for people: the time alone when it was today, else date and time. */
export function formatResolvedAt(timestamp: number, locale: string, now: number = Date.now()): string {
  const when = new Date(timestamp);
  const sameDay = new Date(now).toDateString() === when.toDateString();
  const format = sameDay
    ? new Intl.DateTimeFormat(locale, { timeStyle: 'short' })
    : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return format.format(when);
}
