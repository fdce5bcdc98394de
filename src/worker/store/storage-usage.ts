import type { ConversationSize, ConversationSizes } from '../../schema/protocol';
import type { ParleyDatabase } from './database';

/** Messages read per request: the sizes are summed batch by batch, so memory holds one batch, not every message. */
const BATCH = 200;

/**
 * The `limit` largest conversations by approximate stored size (record and messages as JSON characters, plus the bytes
 * of the files sent with them, from the messages' metadata; the browser compresses what it stores, so this is an upper
 * estimate), and the total. The messages are walked in key order, a
 * batch per readonly transaction: one transaction over every message would hold back every conversation write in every
 * tab (an answer, a streaming reply) until the whole walk was done. The figure is approximate anyway, so a write landing
 * between two batches changes nothing that matters.
 */
export async function conversationSizes(database: ParleyDatabase, limit: number): Promise<ConversationSizes> {
  const sizes = new Map<string, { bytes: number; messages: number }>();
  let after: string | undefined;
  for (;;) {
    const batch = await database.getAll('messages', after === undefined ? undefined : IDBKeyRange.lowerBound(after, true), BATCH);
    for (const message of batch) {
      const size = sizes.get(message.conversationId) ?? { bytes: 0, messages: 0 };
      size.bytes += JSON.stringify(message).length + (message.attachments ?? []).reduce((sum, file) => sum + file.size, 0);
      size.messages += 1;
      sizes.set(message.conversationId, size);
    }
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1]!.id;
  }
  const all: ConversationSize[] = [];
  let totalBytes = 0;
  let conversationCount = 0;
  for (const conversation of await database.getAll('conversations')) {
    const size = sizes.get(conversation.id) ?? { bytes: 0, messages: 0 };
    conversationCount += 1;
    const bytes = size.bytes + JSON.stringify(conversation).length;
    totalBytes += bytes;
    // Nothing to gain by deleting a conversation with no messages (one just opened, not used yet): not listed.
    if (size.messages > 0) all.push({ conversationId: conversation.id, title: conversation.title, bytes, messages: size.messages });
  }
  all.sort((a, b) => b.bytes - a.bytes);
  return { largest: all.slice(0, limit), conversations: conversationCount, totalBytes };
}
