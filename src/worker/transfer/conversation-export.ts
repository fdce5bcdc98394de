import type { ExportedAttachment, StoredAttachment } from '../../schema/attachments/attachments';
import type { Conversation, Message } from '../../schema/records';
import type { ParleyDatabase } from '../store/database';

export interface ExportedConversation {
  conversation: Conversation;
  messages: Message[];
  attachments?: ExportedAttachment[];
}

/**
 * Every conversation with its messages and their files, read in ONE transaction so an export taken while a reply
 * streams is a snapshot of one moment. The files' bytes are read (as base64) after it: reading a Blob is not an
 * IndexedDB request, and the Blobs read stay valid once the transaction is over.
 */
export async function exportAll(database: ParleyDatabase): Promise<ExportedConversation[]> {
  const transaction = database.transaction(['conversations', 'messages', 'attachments'], 'readonly');
  const [conversations, messages, files] = await Promise.all([
    transaction.objectStore('conversations').index('by-updated').getAll(),
    transaction.objectStore('messages').index('by-conversation').getAll(),
    transaction.objectStore('attachments').getAll(),
  ]);
  const byConversation = new Map<string, Message[]>();
  for (const message of messages) {
    const list = byConversation.get(message.conversationId) ?? [];
    list.push(message);
    byConversation.set(message.conversationId, list);
  }
  const filesOf = new Map<string, StoredAttachment[]>();
  for (const file of files) filesOf.set(file.conversationId, [...(filesOf.get(file.conversationId) ?? []), file]);
  // The encoder loads with the first export that has files.
  const { toExported } = files.length > 0 ? await import('../attachments/attachment-files') : { toExported: undefined };
  const result: ExportedConversation[] = [];
  for (const conversation of conversations.reverse()) {
    const entry: ExportedConversation = { conversation, messages: byConversation.get(conversation.id) ?? [] };
    const stored = filesOf.get(conversation.id);
    if (stored?.length && toExported) entry.attachments = await Promise.all(stored.map(toExported));
    result.push(entry);
  }
  return result;
}
