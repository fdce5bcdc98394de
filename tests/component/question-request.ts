import type { QuestionRequest } from '../../src/schema/messages/blocks';
import type { Question, QuestionAnswer } from '../../src/schema/forms/question';

/** What a test changes of a question: its fields, and what was asked and answered (`payload` and `response` built from them). */
export type QuestionOverrides = Partial<Omit<QuestionRequest, 'payload' | 'response'>> & { questions?: Question[]; answers?: QuestionAnswer[]; answerMessageId?: string };

/** The question request `overrides` describe (see QuestionOverrides). */
export function questionRequest(base: Question[], overrides: QuestionOverrides): QuestionRequest {
  const { questions = base, answers, answerMessageId, ...fields } = overrides;
  const response = { ...(answers ? { answers } : {}), ...(answerMessageId ? { answerMessageId } : {}) };
  return { type: 'request', kind: 'question', requestId: 'call-1', toolCallId: 'call-1', payload: { questions }, status: 'pending', ...(answers || answerMessageId ? { response } : {}), ...fields };
}
