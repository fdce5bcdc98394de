import type { Conversation, Message } from '../schema/records';
import type { ParleyDatabase } from './database';

/**
 * Every conversation with its messages, read in ONE transaction so an export taken while a reply streams is a
 * snapshot of one moment.
 */
export async function exportAll(database: ParleyDatabase): Promise<Array<{ conversation: Conversation; messages: Message[] }>> {
  const transaction = database.transaction(['conversations', 'messages'], 'readonly');
  const [conversations, messages] = await Promise.all([
    transaction.objectStore('conversations').index('by-updated').getAll(),
    transaction.objectStore('messages').index('by-conversation').getAll(),
  ]);
  const byConversation = new Map<string, Message[]>();
  for (const message of messages) {
    const list = byConversation.get(message.conversationId) ?? [];
    list.push(message);
    byConversation.set(message.conversationId, list);
  }
  return conversations.reverse().map((conversation) => ({ conversation, messages: byConversation.get(conversation.id) ?? [] }));
}
