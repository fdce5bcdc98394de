import type { ApprovalRequest, Block, ToolCallBlock } from './blocks';

// Zod-free (types only), so the worker's first screen and the UI find a call's approval without loading zod.

/** Whether `block` is the approval asked about the call `toolCallId` (a permission, or "Run again / Skip"). */
export function isApprovalOf(block: Block, toolCallId: string): block is ApprovalRequest {
  return block.type === 'request' && (block.kind === 'permission' || block.kind === 'rerun') && block.toolCallId === toolCallId;
}

/** The approval asked about `call`, if any: it sits beside the call in the same message. */
export function approvalOf(blocks: readonly Block[], call: Pick<ToolCallBlock, 'toolCallId'>): ApprovalRequest | undefined {
  return blocks.find((block): block is ApprovalRequest => isApprovalOf(block, call.toolCallId));
}
