import type { Model } from '../../src/core/run/model';
import type { Profile } from '../../src/schema/records';
import { createModelForProfile } from '../../src/worker/providers/registry';

// What the worker does between the user's answer (or Allow) and the next model request, counted in
// IndexedDB transactions: each begun transaction, its mode, and whether it had committed when the model was called.

export interface Begun {
  /** The database's name (each test tab has its own). */
  database: string;
  mode: IDBTransactionMode;
  stores: string;
  done: boolean;
  /** Its commit was asked for explicitly (`commit()`, see commitWith) rather than left to auto-commit. */
  commitAsked: boolean;
}

const original = IDBDatabase.prototype.transaction;

/** Ends `recordTransactions` (call it after each test). */
export function stopRecording(): void {
  IDBDatabase.prototype.transaction = original;
}

/** From now on, every transaction of every database is recorded in `log`. */
export function recordTransactions(): Begun[] {
  const log: Begun[] = [];
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    const transaction = original.apply(this, args);
    const entry: Begun = { database: this.name, mode: args[1] ?? 'readonly', stores: [args[0]].flat().join(','), done: false, commitAsked: false };
    log.push(entry);
    const commit = transaction.commit.bind(transaction);
    transaction.commit = () => {
      entry.commitAsked = true;
      commit();
    };
    transaction.addEventListener('complete', () => (entry.done = true));
    return transaction;
  };
  return log;
}

/** `readwrite` for a committed transaction, `readwrite (open)` for one still running. */
export const described = (log: Begun[]) => log.map((entry) => `${entry.mode}${entry.done ? '' : ' (open)'}`);

/**
 * Models that note the log as it stands when each is called, and resolve `called` then (the test waits for that before
 * reading anything itself, so the log holds the worker's transactions only).
 */
export function modelRecording(log: () => Begun[] | undefined) {
  const seen: string[][] = [];
  let resolveCalled: () => void = () => undefined;
  const called = new Promise<void>((resolve) => (resolveCalled = resolve));
  const createModel = async (profile: Profile, scriptText: string): Promise<Model> => {
    const model = await createModelForProfile(profile, scriptText);
    return {
      streamStep(request) {
        const now = log();
        if (now) {
          seen.push(described(now));
          resolveCalled();
        }
        return model.streamStep(request);
      },
    };
  };
  return { createModel, seen, called };
}
