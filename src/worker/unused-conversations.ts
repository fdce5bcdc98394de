import type { Transaction } from './transaction';
import { DEFAULT_TITLE } from './store-context';

/** Deletes, in the caller's transaction, every conversation never used (no message, no draft, untitled, idle) not in `keep`. */
export async function removeUnused(transaction: Transaction, keep: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  for (const candidate of await transaction.objectStore('conversations').getAll()) {
    if (keep.has(candidate.id) || candidate.runState !== 'idle' || candidate.title !== DEFAULT_TITLE || candidate.draft) continue;
    const range = IDBKeyRange.bound([candidate.id, 0], [candidate.id, Number.MAX_SAFE_INTEGER]);
    if ((await transaction.objectStore('messages').index('by-conversation').count(range)) > 0) continue;
    await transaction.objectStore('conversations').delete(candidate.id);
    removed.push(candidate.id);
  }
  return removed;
}
