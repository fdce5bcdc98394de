import type { QuestionRequestBlock } from '../../../schema/blocks';
import type { ResolvedOutcome } from '../../../schema/protocol';
import type { Message } from '../../../schema/records';

/** The outcome a resolved block records; an older block without `resolution` is read from its status. */
export function outcomeOfBlock(block: QuestionRequestBlock): ResolvedOutcome | undefined {
  if (block.status === 'pending') return undefined;
  return {
    resolution: block.resolution ?? (block.status === 'denied' ? 'dismissed' : 'answered'),
    ...(block.answers ? { answers: block.answers } : {}),
    ...(block.resolvedAt !== undefined ? { resolvedAt: block.resolvedAt } : {}),
  };
}

/** The outcome of one question as a command reply's message records it, if that message has it resolved. */
export function outcomeFromMessage(message: Message, toolCallId: string): ResolvedOutcome | undefined {
  for (const block of message.blocks) {
    if (block.type === 'question_request' && block.toolCallId === toolCallId) return outcomeOfBlock(block);
  }
  return undefined;
}
