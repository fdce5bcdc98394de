import { WireError } from '../../../schema/wire-error';
import { APPLIED_PROPOSAL_PREFIX, type ParleyDatabase } from '../../store/database';
import type { Transaction } from '../../store/transaction';

/** How many applied proposals' nonces are kept (the newest): far more than a person decides between two syncs. */
const APPLIED_PROPOSALS_KEPT = 10_000;

/** Every applied proposal's record in `settings`: one key per nonce, `{ at }` the time it was claimed. */
const appliedRange = () => IDBKeyRange.bound(APPLIED_PROPOSAL_PREFIX, `${APPLIED_PROPOSAL_PREFIX}\uffff`);

/**
 * Records a proposal's nonce as applied, in `transaction`, in this device's own database (never trusting a field on the
 * server, which can write an old revision back). True the first time; false when it was applied before: a replay.
 * Taken in the transaction that applies the proposal, a crash leaves both or neither (docs/architecture.md, "Sync's
 * authority rule"). One key per nonce: a claim reads and writes one small record, whatever the number kept.
 */
export async function claimIn(transaction: Transaction, nonce: string, now: number): Promise<boolean> {
  const store = transaction.objectStore('settings');
  const key = `${APPLIED_PROPOSAL_PREFIX}${nonce}`;
  if ((await store.count(key)) > 0) return false;
  await store.put({ at: now }, key);
  return true;
}

/**
 * Thrown in the transaction that applies a proposal whose nonce was recorded before (the server wrote an old revision
 * of it back), so it aborts unwritten; a WireError, so the transaction passes it on as it is. Never reaches a page.
 */
export class ProposalReplayed extends WireError {
  constructor() {
    super({ code: 'invalid_state', message: 'This proposal was applied here before.' });
  }
}

/** `claimIn` in a transaction of its own: for a proposal whose command writes no compare-and-set of its own, or was refused. */
export async function claimProposal(database: ParleyDatabase, nonce: string, now: number): Promise<boolean> {
  const transaction = database.transaction('settings', 'readwrite');
  const claimed = await claimIn(transaction as unknown as Transaction, nonce, now);
  await transaction.done;
  return claimed;
}

/** Forgets all but the newest nonces kept (off any proposal's path: once when sync starts). */
export async function pruneAppliedProposals(database: ParleyDatabase): Promise<void> {
  const transaction = database.transaction('settings', 'readwrite');
  const store = transaction.store;
  const keys = await store.getAllKeys(appliedRange());
  if (keys.length > APPLIED_PROPOSALS_KEPT) {
    const records = (await store.getAll(appliedRange())) as Array<{ at?: number }>;
    const byAge = keys.map((key, index) => ({ key, at: records[index]?.at ?? 0 })).sort((a, b) => a.at - b.at);
    await Promise.all(byAge.slice(0, keys.length - APPLIED_PROPOSALS_KEPT).map(({ key }) => store.delete(key)));
  }
  await transaction.done;
}
