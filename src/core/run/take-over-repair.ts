import type { Block } from '../../schema/messages/blocks';
import type { Conversation, Message } from '../../schema/records';
import { approvalOf, askApproval, isPendingRequest, syncPendingIndex, withApproval } from '../requests/request-ids';
import { repairDeadRun } from './run-repair';

/**
 * A conversation this device has just taken over from another ("Continue on this device"), made safe to run
 * here: the other device's run is dead to this one, so what it had under way is repaired as a dead run (a call that was
 * running asks "Run again or Skip", a server's form is closed, a reply being written is interrupted), and nothing the
 * other device approved runs here by itself: a call approved there and not yet run asks again (docs/architecture.md,
 * "Sync's authority rule": approvals are only ever given on the device that runs the call). Pure; returns only what changed.
 */
export function repairTakenOver(conversation: Conversation, messages: readonly Message[], now: number): { conversation: Conversation; messages: Message[] } {
  const dead = new Map(repairDeadRun(messages, now).changed.map((message) => [message.id, message]));
  const changed: Message[] = [];
  let waiting = false;
  for (const original of messages) {
    let message = dead.get(original.id) ?? original;
    let touched = message !== original;
    let blocks: Block[] = message.blocks;
    for (const block of message.blocks) {
      if (block.type !== 'tool_call' || block.status !== 'pending' || approvalOf(message.blocks, block)?.status !== 'success') continue;
      touched = true;
      const { binding: _binding, ...unapproved } = block;
      blocks = withApproval(blocks.map((existing) => (existing === block ? unapproved : existing)), askApproval(block, 'permission', now));
    }
    if (touched || message.status === 'streaming') {
      message = syncPendingIndex({ ...message, blocks, updatedAt: now, ...(message.status === 'streaming' ? { status: 'interrupted' as const } : {}) });
      changed.push(message);
    }
    if (message.blocks.some(isPendingRequest)) waiting = true;
  }
  const runState = waiting ? 'awaiting_input' : conversation.runState === 'running' || conversation.runState === 'waiting_network' ? 'interrupted' : conversation.runState === 'awaiting_input' ? 'idle' : conversation.runState;
  const next: Conversation = { ...conversation, runState, updatedAt: now };
  if (runState !== 'error') delete next.runError;
  return { conversation: next, messages: changed };
}
