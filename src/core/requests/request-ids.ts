import type { ApprovalRequest, Block, ToolCallBlock } from '../../schema/messages/blocks';
import { approvalOf, isApprovalOf } from '../../schema/messages/approvals';
import type { Message } from '../../schema/records';
import { isRequest, type RequestBinding, type RequestBlock } from './request-kinds';

export type { RequestBinding, RequestBlock, RequestKind } from './request-kinds';
export { approvalOf };

/** The id a request is resolved by; undefined for a block that is not a request. */
export function requestIdOf(block: Block): string | undefined {
  return isRequest(block) ? block.requestId : undefined;
}

export function requestBindingOf(request: RequestBlock): RequestBinding {
  return { kind: request.kind, ...(request.requestedAt !== undefined ? { requestedAt: request.requestedAt } : {}) };
}

/** Whether `request` is the very request `binding` names (the same kind, asked at the same time). */
export function bindingMatches(request: RequestBlock, binding: RequestBinding): boolean {
  const actual = requestBindingOf(request);
  return actual.kind === binding.kind && actual.requestedAt === binding.requestedAt;
}

export function isPendingRequest(block: Block): block is RequestBlock {
  return isRequest(block) && block.status === 'pending';
}

export function findRequest(message: Message, requestId: string): RequestBlock | undefined {
  return message.blocks.find((block): block is RequestBlock => isRequest(block) && block.requestId === requestId);
}


/** Whether `call` waits for the user's approval. */
export function awaitsApproval(blocks: readonly Block[], call: Pick<ToolCallBlock, 'toolCallId'>): boolean {
  return approvalOf(blocks, call)?.status === 'pending';
}

/**
 * The message's blocks with `approval` asked about its call: it replaces the call's earlier approval (a call is asked
 * again after an interruption, or on another device), or comes right after the call.
 */
export function withApproval(blocks: readonly Block[], approval: ApprovalRequest): Block[] {
  const existing = blocks.findIndex((block) => isApprovalOf(block, approval.toolCallId));
  if (existing >= 0) return blocks.map((block, index) => (index === existing ? approval : block));
  const call = blocks.findIndex((block) => block.type === 'tool_call' && block.toolCallId === approval.toolCallId);
  return [...blocks.slice(0, call + 1), approval, ...blocks.slice(call + 1)];
}

/** Sets `pendingRequestId` to the message's first pending request (the one indexed query lists), or removes it. */
export function withPendingIndex(message: Message): Message {
  return syncPendingIndex({ ...message });
}

/** `withPendingIndex` in place, for the loop's own working copy. */
export function syncPendingIndex(message: Message): Message {
  const pending = message.blocks.find(isPendingRequest);
  delete message.pendingQuestionId;
  if (pending) message.pendingRequestId = pending.requestId;
  else delete message.pendingRequestId;
  return message;
}

/** A new approval asked about `call`: before it runs (`permission`), or after it was cut off while it ran (`rerun`). */
export function askApproval(call: Pick<ToolCallBlock, 'toolCallId' | 'toolName'>, kind: ApprovalRequest['kind'], now: number): ApprovalRequest {
  return { type: 'request', kind, requestId: call.toolCallId, toolCallId: call.toolCallId, status: 'pending', payload: { toolName: call.toolName }, requestedAt: now };
}
