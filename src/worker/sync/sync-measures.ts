/** Performance measures in the worker (read by bench/sync.mjs): one per batch of local writes sealed into the mirror, and
 * one per batch of mirror changes applied here; their `detail` says how many documents and sealed bytes. */
export const PUSH_MEASURE = 'parley:sync.push';
export const RECEIVE_MEASURE = 'parley:sync.receive';

const measureCounts = new Map<string, number>();
/** A performance measure, the oldest dropped every 1,000 so a long-running worker's timeline does not grow without end. */
export function measure(name: string, start: number, detail: Record<string, number>): void {
  const count = (measureCounts.get(name) ?? 0) + 1;
  measureCounts.set(name, count % 1000);
  if (count === 1000) performance.clearMeasures(name);
  performance.measure(name, { start, detail });
}

/** A moment in turning sync on (read by bench/sync.mjs's trace): the keys derived, the mirror caught up, the claims written. */
export const PHASE_MARK = 'parley:sync.phase';
export function markPhase(phase: string): void {
  performance.mark(PHASE_MARK, { detail: { phase } });
}

/** A step of a proposal's way (read by bench/sync.mjs's trace): written, heard from the server, opened, applied. */
export const PROPOSAL_MARK = 'parley:sync.proposal';
export function markProposal(step: string, via?: string): void {
  performance.mark(PROPOSAL_MARK, { detail: { step, ...(via ? { via } : {}) } });
}
