import { z } from 'zod';
import { Question, QuestionAnswer, QuestionDraft } from './question';

export const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
export type TextBlock = z.infer<typeof TextBlock>;

export const ReasoningBlock = z.object({ type: z.literal('reasoning'), text: z.string() });
export type ReasoningBlock = z.infer<typeof ReasoningBlock>;

/** A tool call of the model and, once it ran (or was refused), its result text. */
export const ToolCallBlock = z.object({
  type: z.literal('tool_call'),
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
  status: z.enum(['pending', 'success', 'error']),
  result: z.string().optional(),
});
export type ToolCallBlock = z.infer<typeof ToolCallBlock>;

export const QuestionResolution = z.enum(['answered', 'chat', 'dismissed', 'stopped']);
export type QuestionResolution = z.infer<typeof QuestionResolution>;

/**
 * A valid question tool call: the durable pause. `pending` until exactly one resolution is recorded;
 * `toolResult` is the text the model reads for this call.
 */
export const QuestionRequestBlock = z.object({
  type: z.literal('question_request'),
  toolCallId: z.string(),
  questions: z.array(Question),
  status: z.enum(['pending', 'success', 'denied']),
  resolution: QuestionResolution.optional(),
  answers: z.array(QuestionAnswer).optional(),
  draft: QuestionDraft.optional(),
  answerMessageId: z.string().optional(),
  resolvedAt: z.number().optional(),
  toolResult: z.string().optional(),
});
export type QuestionRequestBlock = z.infer<typeof QuestionRequestBlock>;

export const ErrorBlock = z.object({
  type: z.literal('error'),
  code: z.string(),
  message: z.string(),
});
export type ErrorBlock = z.infer<typeof ErrorBlock>;

export const Block = z.discriminatedUnion('type', [TextBlock, ReasoningBlock, ToolCallBlock, QuestionRequestBlock, ErrorBlock]);
export type Block = z.infer<typeof Block>;
