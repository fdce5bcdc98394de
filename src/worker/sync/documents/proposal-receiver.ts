import type { Proposal } from '../../../schema/sync/sync';
import type { EngineContext } from '../engine-context';
import { markProposal } from '../sync-measures';

/** Proposals for what this device runs (docs/architecture.md, "Sync's authority rule"): applied once, and answered. */
export class ProposalReceiver {
  /** Nonces of the proposals this engine has taken (the durable record is kept by the host's `applyProposal`). */
  private readonly handledProposals = new Set<string>();
  /** Proposals refused as replayed, for another request than the one waiting, or without a binding (an older device). */
  refusedProposals = 0;

  constructor(private readonly context: EngineContext) {}

  /**
   * A proposal for a conversation this device runs is applied at most once, and only to the request it names: its nonce
   * is recorded in this device's database as it is applied (in the same transaction as an answer's compare-and-set), so
   * an old revision the server writes back is refused,
   * and an Allow given for a call's permission never decides its rerun. The outcome is written back for its author, once
   * `store` is over (a proposal heard from the server before the mirror held it: see awaited-proposals.ts). `store` is
   * called once the apply is over, never beside it: storing the document in the mirror is work of its own (IndexedDB
   * and the worker's time) that the compare-and-set and the run's model request need not wait behind.
   * `firstRevision`: the proposal's document was never written over (its revision `1-`), so it cannot be an old revision
   * written back: a nonce claimed before is this device's own apply, heard from the server, whose tab closed before the
   * mirror held the proposal. It is not applied again nor counted as replayed; what became of it is in the runner's
   * records (its outcome, unknown here, is not written).
   */
  async receive(proposal: Proposal, { store, firstRevision = false }: { store?: () => Promise<unknown>; firstRevision?: boolean } = {}): Promise<void> {
    const { book, host } = this.context;
    if (proposal.outcome) return;
    if (book.runners.get(proposal.conversationId)?.device.id !== book.device.id) return;
    if (!proposal.nonce) {
      // Written by a device on an older build (or replayed from one): it cannot be told from a replay, so it is refused.
      this.refusedProposals += 1;
      await store?.();
      await this.writeOutcome(proposal, { status: 'refused', reason: 'outdated_device' });
      return;
    }
    if (this.handledProposals.has(proposal.nonce)) return;
    this.handledProposals.add(proposal.nonce);
    markProposal('applying', store ? 'server' : 'mirror');
    const result = await host.applyProposal(proposal).catch((error: unknown) => ({ status: 'refused' as const, reason: (error as { reason?: string; code?: string }).reason ?? (error as { code?: string }).code ?? 'failed' }));
    const stored = store?.();
    if (result.status === 'refused' && result.reason === 'replayed') {
      if (firstRevision) return;
      // Applied before: the server wrote an old revision back.
      this.refusedProposals += 1;
      this.context.refused('replayed');
      return;
    }
    markProposal('applied', result.status);
    if (result.status === 'refused' && result.reason === 'request_changed') this.refusedProposals += 1;
    await stored;
    await this.writeOutcome(proposal, result);
  }

  private async writeOutcome(proposal: Proposal, result: { status: 'applied' } | { status: 'refused'; reason: string }): Promise<void> {
    const { book, host } = this.context;
    const outcome = { status: result.status, ...(result.status === 'refused' ? { reason: result.reason.slice(0, 100) } : {}), at: host.now(), by: book.device };
    await this.context.sealed.write(proposal.id, { kind: 'proposal', proposal: { ...proposal, outcome } });
  }
}
