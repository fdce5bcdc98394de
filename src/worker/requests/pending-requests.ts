import { findRequest, isPendingRequest } from '../../core/requests/request-ids';
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
    pending.push({ conversationId: conversation.id, conversationTitle: conversation.title, messageId: message.id, request: block });
  }
  return pending;
}
