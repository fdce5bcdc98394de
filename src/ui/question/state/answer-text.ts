import type { QuestionAnswer } from '../../../schema/forms/question';
import { t } from '../../i18n/i18n';
import { isAnswered } from './question-form-state';

/**
 * One answer as a line of text, for the Review tab and the resolved summary: chosen labels, then the
 * "Other" text in quotes, joined with the locale's separator. Nothing chosen is "Skipped" once sent, and
 * "Not answered yet" while the form is still open (`pending`): the user has not chosen to skip it.
 */
export function describeAnswer(answer: QuestionAnswer | undefined, pending = false): string {
  if (!answer || !isAnswered(answer)) return t(pending ? 'question.notAnsweredYet' : 'question.skipped');
  const other = answer.other?.trim();
  const parts = other ? [...answer.selected, quote(other)] : answer.selected;
  return parts.join(t('question.separator'));
}

/** Typed text in the locale's quotes; text that holds those quote marks itself gets the other kind (“My dog "Rex"”). */
function quote(text: string): string {
  const marks = t('question.quoted', { text: '' });
  return t([...marks].some((mark) => text.includes(mark)) ? 'question.quotedNested' : 'question.quoted', { text });
}
