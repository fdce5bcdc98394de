import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/schema/records';
import { AwaitedProposals } from '../../src/worker/sync/documents/awaited-proposals';
import type { ProposalReceiver } from '../../src/worker/sync/documents/proposal-receiver';
import type { EngineContext } from '../../src/worker/sync/engine-context';
import type { Mirror } from '../../src/worker/sync/mirror/mirror';

// docs/architecture.md, "Sync": the server's changes are heard with their bodies only while a conversation this device
// runs waits on a person, and heard again after a failed request once another record waits.

const conversation = (id: string, runState: Conversation['runState']): Conversation => ({ id, title: id, createdAt: 1, updatedAt: 1, runState, completedSteps: 0 }) as Conversation;

function hearing() {
  const listeners: Array<{ onEnd?: () => void; cancelled: boolean }> = [];
  const mirror = {
    hearServer: (_onDocument: unknown, onEnd?: () => void) => {
      const listener = { onEnd, cancelled: false };
      listeners.push(listener);
      return { cancel: () => (listener.cancelled = true) };
    },
  } as unknown as Mirror;
  const context = { mirror, book: { runsHere: () => true }, stopped: false } as unknown as EngineContext;
  return { awaited: new AwaitedProposals(context, {} as ProposalReceiver), listeners };
}

describe('hearing the server while an answer is awaited (sync)', () => {
  it('listens while a conversation waits on a person, once however many wait, and stops when none does', () => {
    const { awaited, listeners } = hearing();
    awaited.note(conversation('a', 'running'));
    expect(listeners).toHaveLength(0);
    awaited.note(conversation('a', 'awaiting_input'));
    awaited.note(conversation('b', 'awaiting_input'));
    expect(listeners).toHaveLength(1);
    awaited.note(conversation('a', 'running'));
    expect(listeners[0]!.cancelled).toBe(false);
    awaited.note(conversation('b', 'idle'));
    expect(listeners[0]!.cancelled).toBe(true);
  });

  it('listens again after a failed request, with the next record that waits', () => {
    const { awaited, listeners } = hearing();
    awaited.note(conversation('a', 'awaiting_input'));
    listeners[0]!.onEnd?.();
    awaited.note(conversation('a', 'awaiting_input'));
    expect(listeners).toHaveLength(2);
    awaited.stop();
    expect(listeners[1]!.cancelled).toBe(true);
  });
});
