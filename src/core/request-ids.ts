import type { Block, ElicitationRequestBlock, QuestionRequestBlock, ToolCallBlock } from '../schema/blocks';
import type { Message } from '../schema/records';

/**
 * A request for the user: a question, a tool call waiting for approval (or for "Run again / Skip" after a crash), or an
 * MCP server's elicitation. Each is a block that is `pending` until exactly one resolution is stored.
 */
export type RequestBlock = QuestionRequestBlock | ElicitationRequestBlock | ToolCallBlock;

/** The id a request is resolved by; undefined for a block that is not (and never was) a request. */
export function requestIdOf(block: Block): string | undefined {
  switch (block.type) {
    case 'question_request':
      return block.toolCallId;
    case 'tool_call':
      return block.approval ? block.toolCallId : undefined;
    case 'elicitation_request':
      return block.requestId;
    case 'text':
    case 'reasoning':
    case 'error':
      return undefined;
  }
}

/** Which request a block asks: a tool call asks first for permission, and after an interruption whether to run it again. */
export type RequestKind = 'question' | 'permission' | 'rerun' | 'elicitation';

/**
 * What names one request exactly, beyond its id: its kind and, for an approval, when the runner asked. A tool call keeps
 * its id through its permission and any rerun, so an answer given for one must name which (see sync's proposals).
 */
export interface RequestBinding {
  kind: RequestKind;
  requestedAt?: number | undefined;
}

export function requestBindingOf(block: RequestBlock): RequestBinding {
  switch (block.type) {
    case 'question_request':
      return { kind: 'question' };
    case 'elicitation_request':
      return { kind: 'elicitation' };
    case 'tool_call':
      return { kind: block.approval?.kind ?? 'permission', ...(block.approval?.requestedAt !== undefined ? { requestedAt: block.approval.requestedAt } : {}) };
  }
}

/** Whether `block` is the very request `binding` names (the same kind, asked at the same time). */
export function bindingMatches(block: RequestBlock, binding: RequestBinding): boolean {
  const actual = requestBindingOf(block);
  return actual.kind === binding.kind && actual.requestedAt === binding.requestedAt;
}

export function isPendingRequest(block: Block): boolean {
  switch (block.type) {
    case 'question_request':
    case 'elicitation_request':
      return block.status === 'pending';
    case 'tool_call':
      return block.approval?.status === 'pending';
    case 'text':
    case 'reasoning':
    case 'error':
      return false;
  }
}

export function findRequest(message: Message, requestId: string): RequestBlock | undefined {
  return message.blocks.find((block): block is RequestBlock => requestIdOf(block) === requestId);
}

/** Sets `pendingRequestId` to the message's first pending request (the one indexed query lists), or removes it. */
export function withPendingIndex(message: Message): Message {
  return syncPendingIndex({ ...message });
}

/** `withPendingIndex` in place, for the loop's own working copy. */
export function syncPendingIndex(message: Message): Message {
  const pending = message.blocks.find(isPendingRequest);
  delete message.pendingQuestionId;
  if (pending) message.pendingRequestId = requestIdOf(pending)!;
  else delete message.pendingRequestId;
  return message;
}
