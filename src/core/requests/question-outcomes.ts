import type { Question, QuestionAnswer } from '../../schema/forms/question';
import type { QuestionRequest, QuestionResolution } from '../../schema/messages/blocks';
import type { ErrorReason } from '../../schema/protocol';

/**
 * The text the model reads when the user answered in the form. Every question and option is a JSON string, so quotes
 * and commas in them cannot blur the format; several chosen options are a JSON array; what the user typed is marked
 * as typed; answers are separated by "; ".
 */
function answeredResultText(questions: Question[], answers: QuestionAnswer[]): string {
  const pairs = questions.map((question, index) => `${JSON.stringify(question.question)}=${answerText(answers[index])}`);
  return `User has answered your questions: ${pairs.join('; ')}. You can now continue with the user's answers in mind.`;
}

const SKIPPED_ANSWER_TEXT = '(skipped: the user chose not to answer this one)';

/**
 * One answer: `"Beach"` for one chosen option, `["Fish", "Meat"]` for several, then `(typed by the user: "…")` for the
 * free text; the skipped text when nothing was given.
 */
function answerText(answer: QuestionAnswer | undefined): string {
  const selected = answer?.selected ?? [];
  const parts: string[] = [];
  if (selected.length === 1) parts.push(JSON.stringify(selected[0]));
  else if (selected.length > 1) parts.push(`[${selected.map((label) => JSON.stringify(label)).join(', ')}]`);
  if (answer?.other) parts.push(`(typed by the user: ${JSON.stringify(answer.other)})`);
  return parts.length > 0 ? parts.join(' ') : SKIPPED_ANSWER_TEXT;
}

export const CHAT_RESULT_TEXT =
  'The user did not use the form and replied in chat instead. Their message follows as the next user message; treat it as their answer to these questions.';
export const DISMISSED_RESULT_TEXT =
  'The user dismissed these questions without answering. Do not ask them again unless the user asks you to; wait for what the user writes next.';
export const STOPPED_RESULT_TEXT = 'The user stopped the run before answering these questions.';

/** Builds the resolved request: one outcome, its answers, and the tool result the model will read. */
export function resolveQuestionBlock(
  request: QuestionRequest,
  resolution: QuestionResolution,
  details: { now: number; answers?: QuestionAnswer[]; answerMessageId?: string },
): QuestionRequest {
  const { draft, ...rest } = request;
  const response: NonNullable<QuestionRequest['response']> = { toolResult: toolResultText(request.payload.questions, resolution, details.answers) };
  if (resolution === 'answered' && details.answers) response.answers = details.answers;
  if (details.answerMessageId) response.answerMessageId = details.answerMessageId;
  return {
    ...rest,
    // A reply in chat closes the form; what was filled in but not sent stays on record (and on screen), not lost.
    ...(resolution === 'chat' && draft && draft.answers.some((answer) => answer.selected.length > 0 || answer.other?.trim()) ? { draft } : {}),
    status: resolution === 'answered' || resolution === 'chat' ? 'success' : 'denied',
    resolution,
    resolvedAt: details.now,
    response,
  };
}

function toolResultText(questions: Question[], resolution: QuestionResolution, answers?: QuestionAnswer[]): string {
  switch (resolution) {
    case 'answered':
      return answeredResultText(questions, answers ?? []);
    case 'chat':
      return CHAT_RESULT_TEXT;
    case 'dismissed':
      return DISMISSED_RESULT_TEXT;
    case 'stopped':
      return STOPPED_RESULT_TEXT;
  }
}

/** A refusal carries a reason and its values (question header, option) for the UI to word; `message` is English. */
export type AnswerCheck =
  | { ok: true; answers: QuestionAnswer[] }
  | { ok: false; field: string; message: string; reason: AnswerRefusal; params: Record<string, string | number> };
type AnswerRefusal = Extract<ErrorReason, `answer_${string}`>;

/**
 * Checks answers against the stored questions and normalizes them (trimmed Other text, no duplicates).
 * At least one question must be answered: an all-empty submission is not an answer (dismiss is).
 */
export function checkAnswers(questions: Question[], answers: QuestionAnswer[]): AnswerCheck {
  if (answers.length !== questions.length) {
    return { ok: false, field: 'answers', reason: 'answer_count', params: { expected: questions.length, got: answers.length }, message: `Expected ${questions.length} answers (one per question, empty to skip), got ${answers.length}.` };
  }
  const normalized: QuestionAnswer[] = [];
  for (const [index, question] of questions.entries()) {
    const answer = answers[index]!;
    const field = `answers[${index}]`;
    const labels = new Set(question.options.map((option) => option.label));
    const selected = [...new Set(answer.selected)];
    const unknown = selected.find((label) => !labels.has(label));
    if (unknown !== undefined) return { ok: false, field, reason: 'answer_unknown_option', params: { question: question.header, option: unknown }, message: `"${unknown}" is not an option of "${question.header}".` };
    const other = answer.other?.trim() ?? '';
    if (other && !question.custom) return { ok: false, field, reason: 'answer_no_free_text', params: { question: question.header }, message: `"${question.header}" does not accept a free-text answer.` };
    if (!question.multiple && selected.length + (other ? 1 : 0) > 1) {
      return { ok: false, field, reason: 'answer_single_only', params: { question: question.header }, message: `"${question.header}" takes a single answer.` };
    }
    normalized.push(other ? { selected, other } : { selected });
  }
  if (normalized.every((answer) => answer.selected.length === 0 && !answer.other)) {
    return { ok: false, field: 'answers', reason: 'answer_nothing', params: {}, message: 'Answer at least one question, or dismiss the questions.' };
  }
  return { ok: true, answers: normalized };
}
