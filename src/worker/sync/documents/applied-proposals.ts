import type { ParleyDatabase } from '../../store/database';
import { APPLIED_PROPOSALS_KEY } from '../device';

/** How many applied proposals' nonces are kept (newest last): far more than a person decides between two syncs. */
const APPLIED_PROPOSALS_KEPT = 10_000;

/**
 * Records a proposal's nonce as applied, in this device's own database (never trusting a field on the server, which
 * can write an old revision back). True the first time; false when it was applied before: a replay, never applied.
 * Recorded before the proposal is applied, so a crash between the two loses the proposal rather than applying it twice.
 */
export async function claimProposal(database: ParleyDatabase, nonce: string): Promise<boolean> {
  const transaction = database.transaction('settings', 'readwrite');
  const store = transaction.objectStore('settings');
  const stored = (await store.get(APPLIED_PROPOSALS_KEY)) as { nonces?: unknown } | undefined;
  const nonces = Array.isArray(stored?.nonces) ? stored.nonces.filter((entry): entry is string => typeof entry === 'string') : [];
  if (nonces.includes(nonce)) {
    await transaction.done;
    return false;
  }
  nonces.push(nonce);
  await store.put({ nonces: nonces.slice(-APPLIED_PROPOSALS_KEPT) }, APPLIED_PROPOSALS_KEY);
  await transaction.done;
  return true;
}
