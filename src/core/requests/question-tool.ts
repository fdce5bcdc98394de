import { QuestionToolInput, QUESTION_LIMITS } from '../../schema/forms/question';
import type { QuestionRequest } from '../../schema/messages/blocks';
import type { HistoryExchange } from '../run/model';

export const QUESTION_TOOL_NAME = 'question';

/** What the model reads about the question tool: when to ask and when not to. */
export const QUESTION_TOOL_DESCRIPTION = `Ask the user 1-${QUESTION_LIMITS.questions} structured multiple-choice questions and wait for the answers.

Use it when a choice is genuinely the user's to make and guessing would waste their time: ambiguous requirements, preferences (style, budget, scope), or a decision between approaches with real trade-offs. Ask everything you need in one call rather than one question at a time.

Do not use it for things you can find out or reasonably assume, to ask permission for routine steps, or to confirm what the user already said. Do not add an "Other" option: the form always offers a free-text answer unless custom is false.

Rules: each question has a short header (a chip label of at most ${QUESTION_LIMITS.header} characters), the question text (at most ${QUESTION_LIMITS.question} characters), and up to ${QUESTION_LIMITS.options} options with unique labels (at most ${QUESTION_LIMITS.label} characters, optional description of at most ${QUESTION_LIMITS.description}). Set multiple: true when several options may be chosen. This tool must be the only or the last tool call of your turn. The user may answer in the form, reply in chat instead, or dismiss the questions; you will be told which.`;

export type QuestionInputResult = { ok: true; value: QuestionToolInput } | { ok: false; error: string };

/**
 * Validates a question call's input. Never throws. Lenient where it is safe (JSON text, `multiSelect`, trimming, options
 * given as strings, an option named "Other"), strict where it matters: the error names the field and the rule.
 */
export function parseQuestionInput(raw: unknown): QuestionInputResult {
  try {
    const parsed = QuestionToolInput.safeParse(normalizeQuestionInput(raw));
    if (parsed.success) return { ok: true, value: parsed.data };
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    return { ok: false, error: invalidInputText(problems) };
  } catch (error) {
    return { ok: false, error: invalidInputText([`input: could not be read (${String(error)})`]) };
  }
}

function invalidInputText(problems: string[]): string {
  return `Invalid input for the question tool: ${problems.join('; ')}. Nothing was shown to the user. Please rewrite the input so it satisfies the expected schema and call the tool again.`;
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return 'input';
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

function normalizeQuestionInput(raw: unknown): unknown {
  let input = raw;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      return input; // the schema reports "expected object"
    }
  }
  if (!isRecord(input)) return input;
  const questions = input.questions;
  if (!Array.isArray(questions)) return input;
  return { ...input, questions: questions.map(normalizeQuestion) };
}

function normalizeQuestion(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const question = trimmedCopy(raw);
  if (question.multiple === undefined && typeof question.multiSelect === 'boolean') question.multiple = question.multiSelect;
  delete question.multiSelect;
  if (Array.isArray(question.options)) {
    // The form adds its own "Other" when custom is on; with custom off, a model's "Other" is a real option.
    const formAddsOther = question.custom !== false;
    question.options = question.options
      .map((option) => (typeof option === 'string' ? { label: option } : option))
      .map((option) => (isRecord(option) ? trimmedCopy(option) : option))
      .filter((option) => !(formAddsOther && isRecord(option) && typeof option.label === 'string' && option.label.toLowerCase() === 'other'));
  }
  return question;
}

/**
 * A copy with strings trimmed and null fields dropped (strict-mode providers send null for "not set"). Built with
 * Object.fromEntries so a "__proto__" key from the model stays a plain (rejected) key, not a prototype.
 */
function trimmedCopy(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record)
      .filter(([, value]) => value !== null)
      .map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value]),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How an answered question appears in the model's history: a call of this tool with `{ questions }`, and the block's
 * tool result. A pending question is not sent (a provider rejects a call that has no result).
 */
export function questionInHistory(request: QuestionRequest): HistoryExchange | undefined {
  if (request.status === 'pending') return undefined;
  return {
    toolCallId: request.toolCallId,
    toolName: QUESTION_TOOL_NAME,
    input: { questions: request.payload.questions },
    output: { type: 'text', value: request.response?.toolResult ?? fallbackQuestionResult(request.resolution) },
  };
}

/** Only for blocks stored without their result text (older data): say what happened rather than nothing. */
function fallbackQuestionResult(resolution: string | undefined): string {
  if (resolution === 'dismissed') return 'The user dismissed these questions without answering.';
  if (resolution === 'stopped') return 'The user stopped the run before answering these questions.';
  return 'The user responded to these questions.';
}
