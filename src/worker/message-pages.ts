import type { Message } from '../schema/records';
import type { MessagePage } from '../schema/protocol';
import type { ParleyDatabase } from './database';

// A conversation's messages as the UI reads them: all, a page, the newest page, the matches of a search.

export function listMessages(database: ParleyDatabase, conversationId: string): Promise<Message[]> {
  const range = IDBKeyRange.bound([conversationId, 0], [conversationId, Number.MAX_SAFE_INTEGER]);
  return database.getAllFromIndex('messages', 'by-conversation', range);
}

/**
 * The newest `limit` messages with `fromSeq <= seq < beforeSeq`, oldest first, and how many stored messages come
 * before them. One readonly transaction: a key cursor finds where the page starts, one getAll reads it.
 */
export async function listMessagePage(database: ParleyDatabase, conversationId: string, options: { beforeSeq?: number; fromSeq?: number; limit: number }): Promise<MessagePage> {
  const index = database.transaction('messages', 'readonly').store.index('by-conversation');
  const range = IDBKeyRange.bound([conversationId, options.fromSeq ?? 0], [conversationId, options.beforeSeq ?? Number.MAX_SAFE_INTEGER], false, true);
  let cursor = await index.openKeyCursor(range, 'prev');
  if (cursor && options.limit > 1) cursor = await cursor.advance(options.limit - 1);
  const firstSeq = cursor ? (cursor.key[1] as number) : (options.fromSeq ?? 0);
  const upper = options.beforeSeq ?? Number.MAX_SAFE_INTEGER;
  const [messages, earlier] = await Promise.all([
    index.getAll(IDBKeyRange.bound([conversationId, firstSeq], [conversationId, upper], false, true)),
    firstSeq > 0 ? index.count(IDBKeyRange.bound([conversationId, 0], [conversationId, firstSeq], false, true)) : 0,
  ]);
  return { messages, earlier };
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

/** The seqs of messages whose text blocks contain `query`, case-insensitively, oldest first; at most `limit`. */
export async function searchMessages(database: ParleyDatabase, conversationId: string, query: string, limit: number): Promise<{ seqs: number[]; truncated: boolean }> {
  const needle = query.toLocaleLowerCase();
  const messages = await listMessages(database, conversationId);
  const seqs: number[] = [];
  for (const message of messages) {
    const found = message.blocks.some((block) => (block.type === 'text' || block.type === 'reasoning') && block.text.toLocaleLowerCase().includes(needle));
    if (!found) continue;
    if (seqs.length === limit) return { seqs, truncated: true };
    seqs.push(message.seq);
  }
  return { seqs, truncated: false };
}
