import type { QuestionRequest } from '../../../schema/messages/blocks';
import type { ResolvedOutcome } from '../../../schema/protocol';
import type { Message } from '../../../schema/records';
import { WireError } from '../../../schema/wire-error';
import { wordError } from '../../common/lazy-error-words';
import { t, type MessageKey } from '../../i18n/i18n';

/** An error under the form: a sentence of the dictionary, and the worker's or provider's words folded under Details. */
export interface ErrorText {
  key: MessageKey;
  params?: Record<string, string>;
  detail?: string;
}

/** Why an answer or a dismissal could not be sent. The sentence comes from the error's code and reason, in the UI's language; never the worker's English. */
export async function sendFailure(caught: unknown): Promise<ErrorText> {
  const { text, detail } = await wordError(caught);
  return {
    key: caught instanceof WireError && caught.code === 'invalid_answer' ? 'question.invalidAnswer' : 'question.sendFailed',
    params: { message: text },
    ...(detail ? { detail } : {}),
  };
}

/** What a screen reader hears when the form appears: the (first) question, and how many there are. */
export function announce(questions: QuestionRequest['payload']['questions']): string {
  const first = questions[0]?.question ?? '';
  return questions.length > 1 ? t('question.announceMany', { count: questions.length, question: first }) : t('question.announceOne', { question: first });
}

/** The outcome a resolved block records; an older block without `resolution` is read from its status. */
export function outcomeOfBlock(block: QuestionRequest): ResolvedOutcome | undefined {
  if (block.status === 'pending') return undefined;
  return {
    resolution: block.resolution ?? (block.status === 'denied' ? 'dismissed' : 'answered'),
    ...(block.response?.answers ? { answers: block.response.answers } : {}),
    ...(block.resolvedAt !== undefined ? { resolvedAt: block.resolvedAt } : {}),
    ...(block.resolvedOn !== undefined ? { resolvedOn: block.resolvedOn } : {}),
  };
}

/** The outcome of one question as a command reply's message records it, if that message has it resolved. */
export function outcomeFromMessage(message: Message, toolCallId: string): ResolvedOutcome | undefined {
  for (const block of message.blocks) {
    if (block.type === 'request' && block.kind === 'question' && block.requestId === toolCallId) return outcomeOfBlock(block);
  }
  return undefined;
}
