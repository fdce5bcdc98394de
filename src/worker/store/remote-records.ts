import type { RecordChange } from '../../core/run/store';
import type { Message } from '../../schema/records';
import type { StoreContext } from './store-context';
import { inTransaction } from './transaction';

// Records other devices wrote (sync): stored as they come, and made safe to run here when this device takes a
// conversation over. The parts of the conversation store (conversation-store.ts) that only sync calls.

/**
 * Records another device wrote (sync), stored as they are: this device does not run their conversation, so it never
 * acts on them (a take-over repairs them first). A message older than the stored one is not written back over it.
 */
export async function applyRemoteChange({ database, listener }: StoreContext, change: RecordChange): Promise<void> {
  // Of one message given twice, the later unless it is older (as written one after the other). The reads are asked
  // together and so are the writes: awaited one by one, they were most of an initial sync's time on the receiver.
  const incoming = new Map<string, Message>();
  for (const message of change.messages ?? []) {
    const earlier = incoming.get(message.id);
    if (!earlier || earlier.updatedAt <= message.updatedAt) incoming.set(message.id, message);
  }
  const written = await inTransaction(database, ['conversations', 'messages'], async (transaction) => {
    const store = transaction.objectStore('messages');
    const candidates = [...incoming.values()];
    const stored = await Promise.all(candidates.map((message) => store.get(message.id)));
    const messages = candidates.filter((message, index) => !(stored[index] && stored[index].updatedAt > message.updatedAt));
    await Promise.all([...messages.map((message) => store.put(message)), change.conversation && transaction.objectStore('conversations').put(change.conversation)]);
    return { ...(change.conversation ? { conversation: change.conversation } : {}), messages };
  });
  if (written.conversation || written.messages.length > 0) listener.committed(written);
}

/** Makes a conversation just taken over from another device safe to run here (see repairTakenOver), in one transaction. */
export async function repairTakenOverConversation({ database, listener, now }: StoreContext, conversationId: string): Promise<void> {
  // Loaded with sync's first take-over, before the transaction (which awaits nothing but IndexedDB).
  const { repairTakenOver } = await import('../../core/run/take-over-repair');
  const change = await inTransaction(database, ['conversations', 'messages'], async (transaction) => {
    const conversation = await transaction.objectStore('conversations').get(conversationId);
    if (!conversation) return undefined;
    const range = IDBKeyRange.bound([conversationId, 0], [conversationId, Number.MAX_SAFE_INTEGER]);
    const repaired = repairTakenOver(conversation, await transaction.objectStore('messages').index('by-conversation').getAll(range), now());
    for (const message of repaired.messages) await transaction.objectStore('messages').put(message);
    await transaction.objectStore('conversations').put(repaired.conversation);
    return repaired;
  });
  if (change) listener.committed(change);
}
