import type { Conversation } from '../../../schema/records';
import type { EngineContext } from '../engine-context';
import type { EncryptedDocument } from '../mirror/mirror';
import type { ProposalReceiver } from './proposal-receiver';
import { markProposal } from '../sync-measures';

/**
 * While a conversation this device runs waits on a person (a question, an approval), the answer may come from another
 * device as a proposal. Meanwhile the server's changes are heard with their bodies (`Mirror.hearServer`), so the
 * proposal is applied as soon as the server has it, not once the replication has fetched it in a second request and
 * the mirror handed it on. It is stored in the mirror with the revision the server gave it, so its outcome is written
 * over it as the next revision; the receiver's nonces keep it from being applied again when the mirror hands it on.
 */
export class AwaitedProposals {
  /** Conversations this device runs that wait on a person. */
  private readonly awaiting = new Set<string>();
  private hearing: { cancel(): void } | undefined;

  constructor(
    private readonly context: EngineContext,
    private readonly proposals: ProposalReceiver,
  ) {}

  /** A conversation record this device wrote: heard for while it waits on a person here. */
  note(conversation: Conversation): void {
    if (conversation.runState === 'awaiting_input' && this.context.book.runsHere(conversation.id)) this.awaiting.add(conversation.id);
    else this.awaiting.delete(conversation.id);
    this.listen();
  }

  stop(): void {
    this.awaiting.clear();
    this.listen();
  }

  private listen(): void {
    const { mirror, stopped } = this.context;
    if (this.awaiting.size > 0 && !stopped) {
      if (this.hearing) return;
      // Ended by a failed request, it is started again with the next record that waits.
      const hearing = mirror.hearServer?.(
        (document) => void this.heard(document).catch(() => undefined),
        () => this.hearing === hearing && (this.hearing = undefined),
      );
      this.hearing = hearing;
      return;
    }
    this.hearing?.cancel();
    this.hearing = undefined;
  }

  /** A document the server changed: applied here if it is a new proposal for a conversation that waits here. */
  private async heard(document: EncryptedDocument): Promise<void> {
    const { mirror, sealed } = this.context;
    if (this.context.stopped || !mirror.adopt || document.e !== 1 || !document._rev?.startsWith('1-') || sealed.own.holds(document)) return;
    markProposal('heard', 'server');
    const payload = await sealed.read(document, { quiet: true });
    if (payload?.kind !== 'proposal' || payload.proposal.id !== document._id || !this.awaiting.has(payload.proposal.conversationId)) return;
    markProposal('opened', 'server');
    await this.proposals.receive(payload.proposal, { store: () => mirror.adopt!(document).catch(() => false), firstRevision: true });
  }
}
