import type { Message } from '../../schema/records';
import type { MessagePage } from '../../schema/protocol';
import type { ParleyDatabase } from './database';
import { messagesIn } from './store-context';
import type { ReadTransaction } from './transaction';

/** How many of a conversation's newest messages `conversation.open` returns. */
export const OPEN_PAGE_SIZE = 50;

// A conversation's messages as the UI reads them: all, a page, the newest page (a search's matches: message-search.ts).

/** The messages on the conversation's path, in order. */
export function listMessages(database: ParleyDatabase, conversationId: string): Promise<Message[]> {
  return messagesIn(database.transaction(['conversations', 'messages'], 'readonly'), conversationId);
}

/**
 * The newest `limit` messages of the path with `fromSeq <= seq < beforeSeq`, oldest first, and how many come before
 * them (see MessagePage). A conversation without forks is one line: a key cursor finds where the page starts, one getAll
 * reads it, and the first key before it says how far back the line goes. One with forks reads all its messages to find
 * its path (a fork is rare; a page of a line stays cheap).
 */
export async function listMessagePage(database: ParleyDatabase, conversationId: string, options: { beforeSeq?: number; fromSeq?: number; limit: number }): Promise<MessagePage> {
  const transaction = database.transaction(['conversations', 'messages'], 'readonly');
  const conversation = await transaction.objectStore('conversations').get(conversationId);
  if (conversation?.forks?.length) {
    const path = await messagesIn(transaction, conversationId);
    const inRange = path.filter((message) => message.seq >= (options.fromSeq ?? 0) && message.seq < (options.beforeSeq ?? Number.MAX_SAFE_INTEGER));
    const messages = inRange.slice(Math.max(0, inRange.length - options.limit));
    // On a path, positions run 0, 1, 2…: the first message's seq counts those before it.
    return { messages, earlier: messages[0]?.seq ?? 0 };
  }
  const index = transaction.objectStore('messages').index('by-conversation');
  const range = IDBKeyRange.bound([conversationId, options.fromSeq ?? 0], [conversationId, options.beforeSeq ?? Number.MAX_SAFE_INTEGER], false, true);
  let cursor = await index.openKeyCursor(range, 'prev');
  if (cursor && options.limit > 1) cursor = await cursor.advance(options.limit - 1);
  const firstSeq = cursor ? (cursor.key[1] as number) : (options.fromSeq ?? 0);
  const upper = options.beforeSeq ?? Number.MAX_SAFE_INTEGER;
  const [messages, earlier] = await Promise.all([
    index.getAll(IDBKeyRange.bound([conversationId, firstSeq], [conversationId, upper], false, true)),
    firstSeq > 0 ? earlierOnLine(transaction, conversationId, firstSeq) : 0,
  ]);
  return { messages, earlier };
}

/**
 * How many messages of a line come before `firstSeq`, from its first stored message's seq: positions on a line run one
 * by one, so this counts them with one key read (an IndexedDB count walks every key before the page, and a long
 * conversation's open grew with it). 0 exactly when none is stored before it; a gap (messages still arriving by sync)
 * after the first stored one is counted as if it were filled.
 */
async function earlierOnLine(transaction: ReadTransaction, conversationId: string, firstSeq: number): Promise<number> {
  const first = await transaction.objectStore('messages').index('by-conversation').openKeyCursor(IDBKeyRange.bound([conversationId, 0], [conversationId, firstSeq], false, true));
  return first ? firstSeq - (first.key[1] as number) : 0;
}

/** The newest page of a conversation, reaching back far enough to hold every message with a pending request. */
export async function listNewestMessages(database: ParleyDatabase, conversationId: string, limit: number): Promise<MessagePage> {
  const page = await listMessagePage(database, conversationId, { limit });
  const pending = (await database.getAllFromIndex('messages', 'by-pending-request')).filter((message) => message.conversationId === conversationId);
  const oldestPending = Math.min(...pending.map((message) => message.seq));
  const firstSeq = page.messages[0]?.seq ?? 0;
  if (oldestPending >= firstSeq) return page;
  return listMessagePage(database, conversationId, { fromSeq: oldestPending, beforeSeq: Number.MAX_SAFE_INTEGER, limit: Number.MAX_SAFE_INTEGER });
}
