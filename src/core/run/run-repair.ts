import type { Message } from '../../schema/records';
import type { Block } from '../../schema/messages/blocks';
import { askApproval, awaitsApproval, isPendingRequest, syncPendingIndex, withApproval } from '../requests/request-ids';
import { closeWhenRunDies, needsLiveRun } from '../requests/request-kinds';
import { INTERRUPTED_TOOL_TEXT, STOPPED_BEFORE_TOOL_TEXT } from '../tools/tool-outcomes';

/**
 * The messages of a run that died (its tab closed or crashed), repaired: a tool call that was running becomes
 * `interrupted` — it may or may not have run — and asks the user "Run again or Skip?" instead of being re-run by itself;
 * an elicitation still waiting can no longer reach its server, so it is closed as interrupted. Only changed messages
 * are returned; `asks` says whether the user now has a request to resolve.
 */
export function repairDeadRun(messages: readonly Message[], now: number): { changed: Message[]; asks: boolean } {
  const changed: Message[] = [];
  let asks = false;
  for (const message of messages) {
    let touched = false;
    let blocks = message.blocks.map((block): Block => {
      if (block.type === 'tool_call' && block.status === 'running') {
        touched = true;
        asks = true;
        return { ...block, status: 'interrupted', result: INTERRUPTED_TOOL_TEXT };
      }
      const closed = isPendingRequest(block) ? closeWhenRunDies(block, now) : undefined;
      if (closed) touched = true;
      return closed ?? block;
    });
    for (const block of message.blocks) {
      if (block.type === 'tool_call' && block.status === 'running') blocks = withApproval(blocks, askApproval(block, 'rerun', now));
    }
    if (touched) changed.push(syncPendingIndex({ ...message, blocks, updatedAt: now }));
  }
  return { changed, asks };
}

/** Whether any message waits on a request only a live run can receive (an elicitation). */
export function hasPendingElicitation(messages: readonly Message[]): boolean {
  return messages.some((message) => message.blocks.some((block) => needsLiveRun(block) && isPendingRequest(block)));
}

/** Calls still queued when the user moved on (replied in chat, or stopped): closed, so none is left half-done. */
export function closeQueuedCalls(message: Message, now: number): Message | undefined {
  const queued = (block: Block) => block.type === 'tool_call' && block.status === 'pending' && !awaitsApproval(message.blocks, block);
  if (!message.blocks.some(queued)) return undefined;
  const blocks = message.blocks.map((block) => (block.type === 'tool_call' && queued(block) ? { ...block, status: 'stopped' as const, result: STOPPED_BEFORE_TOOL_TEXT } : block));
  return { ...message, blocks, updatedAt: now };
}
