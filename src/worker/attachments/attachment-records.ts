import type { AttachmentMeta } from '../../schema/attachments/attachments';
import type { Transaction } from '../store/transaction';

// A message's files inside the transactions that write or delete the message (run-records, branch-records,
// conversation-store). Reading, checking and encoding files is in attachment-files.ts, loaded when files are used.

/** A file checked and ready to be written with its message: what the message holds, and the bytes. */
export interface PreparedAttachment {
  meta: AttachmentMeta;
  blob: Blob;
}

/** Writes a message's files in the caller's transaction (the one writing the message). */
export async function putAttachments(transaction: Transaction, conversationId: string, messageId: string, files: readonly PreparedAttachment[]): Promise<void> {
  for (const file of files) await transaction.objectStore('attachments').put({ id: file.meta.id, conversationId, messageId, blob: file.blob });
}

/** Copies the files `from` as `to` (same order, new ids) for `message`, in the caller's transaction (an edited version). */
export async function copyAttachments(transaction: Transaction, from: readonly AttachmentMeta[], to: readonly AttachmentMeta[], message: { id: string; conversationId: string }): Promise<void> {
  const store = transaction.objectStore('attachments');
  for (const [index, meta] of from.entries()) {
    const stored = await store.get(meta.id);
    const copy = to[index];
    if (stored && copy) await store.put({ id: copy.id, conversationId: message.conversationId, messageId: message.id, blob: stored.blob });
  }
}

/** Deletes the files of the given messages in the caller's transaction. */
export async function deleteAttachmentsOfMessages(transaction: Transaction, messageIds: Iterable<string>): Promise<void> {
  const index = transaction.objectStore('attachments').index('by-message');
  for (const messageId of messageIds) {
    for (const key of await index.getAllKeys(messageId)) await transaction.objectStore('attachments').delete(key);
  }
}

/** Deletes every file of a conversation in the caller's transaction. */
export async function deleteAttachmentsOfConversation(transaction: Transaction, conversationId: string): Promise<void> {
  for (const key of await transaction.objectStore('attachments').index('by-conversation').getAllKeys(conversationId)) {
    await transaction.objectStore('attachments').delete(key);
  }
}

