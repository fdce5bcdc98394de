import { pathOf } from '../../core/branches';
import { WireError } from '../../schema/wire-error';
import type { Message } from '../../schema/records';
import type { RecordDiff } from './change-feed';
import type { ParleyDatabase } from './database';
import { inTransaction, type ReadTransaction, type Stores, type Transaction } from './transaction';
import { readConfigGeneration } from '../settings/stored-config';

// What the conversation store's parts (conversation-store, run-records, request-records) share: their surroundings and
// the reads and writes their transactions are built from.


/** Told after every committed transaction what it changed: the host publishes it on its change feed (change-feed.ts). */
export interface StoreListener {
  committed(diff: RecordDiff): void;
  /** A transaction a model step may follow read the stored config generation (see StoredConfig.observe). */
  sawConfigGeneration?(generation: number): void;
}

/** The database and what a write needs besides it: who to tell once it commits, the clock, new ids. */
export interface StoreContext {
  readonly database: ParleyDatabase;
  readonly listener: StoreListener;
  readonly now: () => number;
  readonly newId: () => string;
}

/**
 * The scope of every transaction a model step may follow (a run's start, an answer's compare-and-set, the loop's writes):
 * it includes `settings` to read the config generation alongside, so the step's cached config is checked for free.
 */
export const RUN_STORES: Stores = ['conversations', 'messages', 'settings'];

/**
 * A transaction a model step may follow: it also reads the config generation and reports it once committed.
 * `extraStores` widens it for the few that write more (a message's files).
 */
export async function transactRun<T>(context: StoreContext, body: (transaction: Transaction) => Promise<T>, extraStores: Stores = []): Promise<T> {
  let generation: number | undefined;
  const result = await inTransaction(context.database, [...RUN_STORES, ...extraStores], async (transaction) => {
    const [value, read] = await Promise.all([body(transaction), readConfigGeneration(transaction)]);
    generation = read;
    return value;
  });
  if (generation !== undefined) context.listener.sawConfigGeneration?.(generation);
  return result;
}

/** The messages on the conversation's path (core/branches.ts), in order: what the model reads and the screen shows. */
export async function messagesIn(transaction: ReadTransaction, conversationId: string): Promise<Message[]> {
  const range = IDBKeyRange.bound([conversationId, 0], [conversationId, Number.MAX_SAFE_INTEGER]);
  const [conversation, messages] = await Promise.all([transaction.objectStore('conversations').get(conversationId), transaction.objectStore('messages').index('by-conversation').getAll(range)]);
  return pathOf(messages, conversation?.forks);
}

/** Every message of the conversation, on its path or not (versions, other branches), by position. */
export function allMessagesIn(transaction: ReadTransaction, conversationId: string): Promise<Message[]> {
  const range = IDBKeyRange.bound([conversationId, 0], [conversationId, Number.MAX_SAFE_INTEGER]);
  return transaction.objectStore('messages').index('by-conversation').getAll(range);
}

/** The messages in order once `written` (new or replaced, by id) are stored. */
export function afterWrite(messages: readonly Message[], written: readonly Message[]): Message[] {
  const byId = new Map(written.map((message) => [message.id, message]));
  const history = messages.map((message) => byId.get(message.id) ?? message);
  for (const message of written) if (!messages.some((stored) => stored.id === message.id)) history.push(message);
  return history.sort((a, b) => a.seq - b.seq);
}

export function notFound(kind: 'conversation' | 'message' | 'request', id: string): WireError {
  return new WireError({ code: 'not_found', reason: `${kind}_gone`, message: `No ${kind} with id "${id}" here. It may have been deleted.` });
}
