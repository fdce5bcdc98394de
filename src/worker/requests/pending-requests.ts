import { findRequest, isPendingRequest } from '../../core/requests/request-ids';
import { requestKindOf } from '../../core/requests/request-kinds';
import type { PendingRequest } from '../../schema/protocol';
import type { ParleyDatabase } from '../store/database';

/** Every pending request of every conversation (questions, approvals, elicitations), from one index. */
export async function listPendingRequests(database: ParleyDatabase): Promise<PendingRequest[]> {
  const transaction = database.transaction(['messages', 'conversations'], 'readonly');
  const messages = await transaction.objectStore('messages').index('by-pending-request').getAll();
  const pending: PendingRequest[] = [];
  for (const message of messages) {
    const conversation = await transaction.objectStore('conversations').get(message.conversationId);
    const block = findRequest(message, message.pendingRequestId ?? '');
    if (!conversation || !block || !isPendingRequest(block)) continue;
    const where = { conversationId: conversation.id, conversationTitle: conversation.title, messageId: message.id, requestId: block.requestId };
    pending.push({ ...where, ...requestKindOf(block).listed(block) });
  }
  return pending;
}
