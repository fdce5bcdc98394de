import type { ParleyDatabase } from './database';
import { inTransaction, type ReadTransaction, type Transaction } from './transaction';
import { isUntitled } from '../../schema/conversation-title';

/**
 * Every conversation never used (no message, no draft, untitled, idle) not in `keep`, read in the caller's transaction.
 * `createdBefore`: only one made before then. A clean-up asked before a conversation was made never takes it, whatever
 * order the two reach the store in: a click made as the page starts creates one while the start's clean-up looks for
 * view locks, before the new view has taken its own.
 */
async function unusedIn(transaction: ReadTransaction, keep: ReadonlySet<string>, createdBefore = Infinity): Promise<string[]> {
  const unused: string[] = [];
  for (const candidate of await transaction.objectStore('conversations').getAll()) {
    if (keep.has(candidate.id) || candidate.createdAt >= createdBefore || candidate.runState !== 'idle' || !isUntitled(candidate.title) || candidate.draft) continue;
    const range = IDBKeyRange.bound([candidate.id, 0], [candidate.id, Number.MAX_SAFE_INTEGER]);
    if ((await transaction.objectStore('messages').index('by-conversation').count(range)) > 0) continue;
    unused.push(candidate.id);
  }
  return unused;
}

/** Deletes, in the caller's transaction, every conversation never used (see unusedIn) not in `keep`. */
export async function removeUnused(transaction: Transaction, keep: ReadonlySet<string>, createdBefore?: number): Promise<string[]> {
  const removed = await unusedIn(transaction, keep, createdBefore);
  for (const conversationId of removed) await transaction.objectStore('conversations').delete(conversationId);
  return removed;
}

/**
 * `conversation.discardUnused`: looked for in a readonly transaction first, and written only when there is something to
 * remove. At a start there rarely is, and a readwrite transaction there held every read made beside it (the first
 * screen's, the page's) until it had committed. What the look found is checked again as it is removed.
 */
export async function discardUnused(database: ParleyDatabase, keep: ReadonlySet<string>, createdBefore: number): Promise<string[]> {
  const found = await unusedIn(database.transaction(['conversations', 'messages'], 'readonly'), keep, createdBefore);
  if (found.length === 0) return [];
  return inTransaction(database, ['conversations', 'messages'], (transaction) => removeUnused(transaction, keep, createdBefore));
}
