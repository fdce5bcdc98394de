import type { Block } from '../../schema/blocks';
import type { Message } from '../../schema/records';
import { requestKindOf, type RequestBinding, type RequestBlock } from './request-kinds';

export type { RequestBinding, RequestBlock, RequestKind } from './request-kinds';

/** The id a request is resolved by; undefined for a block that is not (and never was) a request. */
export function requestIdOf(block: Block): string | undefined {
  return requestKindOf(block)?.requestId(block as RequestBlock);
}

export function requestBindingOf(block: RequestBlock): RequestBinding {
  return requestKindOf(block)!.binding(block);
}

/** Whether `block` is the very request `binding` names (the same kind, asked at the same time). */
export function bindingMatches(block: RequestBlock, binding: RequestBinding): boolean {
  const actual = requestBindingOf(block);
  return actual.kind === binding.kind && actual.requestedAt === binding.requestedAt;
}

export function isPendingRequest(block: Block): boolean {
  return requestKindOf(block)?.isPending(block as RequestBlock) ?? false;
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
