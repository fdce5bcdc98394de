import type { IDBPTransaction, StoreNames } from 'idb';
import { WireError } from '../../schema/wire-error';
import type { ParleyDatabase, ParleyDatabaseSchema } from './database';

export type Stores = StoreNames<ParleyDatabaseSchema>[];
export type Transaction = IDBPTransaction<ParleyDatabaseSchema, Stores, 'readwrite'>;
/** A transaction that is only read from: readonly or readwrite. */
export type ReadTransaction = IDBPTransaction<ParleyDatabaseSchema, Stores, IDBTransactionMode>;

/**
 * Runs `body` in one readwrite transaction; any throw aborts it, so a failed command writes nothing. `body` must
 * await nothing but IndexedDB requests (anything else commits the transaction early). Storage-full errors become
 * `storage_full`, others `internal`; a WireError passes through.
 */
export async function inTransaction<T>(database: ParleyDatabase, stores: Stores, body: (transaction: Transaction) => Promise<T>): Promise<T> {
  let transaction: Transaction | undefined;
  try {
    transaction = database.transaction(stores, 'readwrite');
    transaction.done.catch(() => undefined); // awaited below; this only silences the abort path
    const result = await body(transaction);
    await transaction.done;
    return result;
  } catch (error) {
    try {
      transaction?.abort();
    } catch {
      // already finished or aborted
    }
    throw toStorageError(error);
  }
}

/**
 * Issues a transaction's last writes and commits it at once (`IDBTransaction.commit`): the database commits as soon as
 * they are done, instead of first sending their answers back to this thread and waiting for it to issue nothing more
 * (one round trip fewer between the writes and the commit). Nothing may be read or written in the transaction after it.
 * Resolves when the writes are done; the commit is what the transaction's `done` (awaited by inTransaction) says.
 */
export function commitWith<T>(transaction: Transaction, writes: readonly Promise<T>[]): Promise<T[]> {
  const written = Promise.all(writes);
  transaction.commit();
  return written;
}

function toStorageError(error: unknown): unknown {
  if (error instanceof WireError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'QuotaExceededError') {
    return new WireError({ code: 'storage_full', message: 'The browser has no storage space left for Parley. Nothing was lost; free some space (delete old conversations) and try again.' }, { cause: error });
  }
  return new WireError({ code: 'internal', reason: 'save_failed', message: `Saving failed: ${error instanceof Error ? error.message : String(error)}` }, { cause: error });
}
