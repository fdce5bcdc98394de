import { describe, expect, it } from 'vitest';
import type { Proposal } from '../../src/schema/sync/sync';
import { ProposalReceiver } from '../../src/worker/sync/documents/proposal-receiver';
import type { EngineContext } from '../../src/worker/sync/engine-context';

// docs/architecture.md, "Sync's authority rule": a proposal heard from the server is applied first; its document is
// stored in the mirror once the apply is over (never beside it, where its IndexedDB work and the worker's time would
// delay the compare-and-set and the run's model request), and its outcome is written once it is stored.

const device = { id: 'laptop', name: 'Laptop' };
const proposal = { id: 'p1', conversationId: 'c1', nonce: 'n1', from: { id: 'phone', name: 'Phone' }, command: { type: 'run.stop', conversationId: 'c1' } } as unknown as Proposal;

function receiver(outcome: { status: 'applied' } | { status: 'refused'; reason: string }) {
  const steps: string[] = [];
  const context = {
    book: { device, runners: new Map([['c1', { device }]]) },
    host: {
      now: () => 1,
      async applyProposal() {
        steps.push('apply started');
        await new Promise((resolve) => setTimeout(resolve, 5));
        steps.push('apply over');
        return outcome;
      },
    },
    sealed: { write: async () => void steps.push('outcome written') },
    refused: () => steps.push('refused counted'),
  } as unknown as EngineContext;
  const store = async () => {
    steps.push('store started');
    await new Promise((resolve) => setTimeout(resolve, 5));
    steps.push('stored');
    return true;
  };
  return { receiver: new ProposalReceiver(context), steps, store };
}

describe('a proposal heard from the server (sync)', () => {
  it('is stored in the mirror only once its apply is over, and its outcome written once it is stored', async () => {
    const { receiver: proposals, steps, store } = receiver({ status: 'applied' });
    await proposals.receive(proposal, { store, firstRevision: true });
    expect(steps).toEqual(['apply started', 'apply over', 'store started', 'stored', 'outcome written']);
  });

  it('is stored even when it was applied before (this device’s own apply, heard again), with no outcome written', async () => {
    const { receiver: proposals, steps, store } = receiver({ status: 'refused', reason: 'replayed' });
    await proposals.receive(proposal, { store, firstRevision: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(steps).toEqual(['apply started', 'apply over', 'store started', 'stored']);
  });
});
