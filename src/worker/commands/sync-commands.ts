import { argumentsDigest } from '../../core/approval-binding';
import type { Proposal } from '../../schema/sync';
import { WireError } from '../../schema/wire-error';
import type { SyncGate } from '../sync/sync-gate';
import type { CommandHandlerDeps, Handlers } from './command-deps';
import { resolveHere } from './request-commands';
import { sendMessage, stopHere } from './run-commands';

/** Sync's own commands (issue 19): turning it on and off, this device's name, who runs what, "Continue on this device". */
export function createSyncHandlers(deps: CommandHandlerDeps) {
  const { store } = deps;
  function syncGate(): SyncGate {
    if (!deps.sync) throw new WireError({ code: 'invalid_state', reason: 'sync_off', message: 'Sync is not available here.' });
    return deps.sync;
  }

  return {
    'sync.status': () => syncGate().status(),
    'sync.enable': (command) => syncGate().enable(command),
    'sync.disable': (command) => syncGate().disable(command),
    'sync.setDeviceName': (command) => syncGate().setDeviceName(command.name),
    'sync.clearRefusals': () => syncGate().clearRefusals(),
    'sync.restoreKey': () => syncGate().restoreKey(),
    'sync.runners': async () => syncGate().runners(),
    'conversation.takeOver': async (command) => {
      if (!(await store.getConversation(command.conversationId))) throw new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists.' });
      await syncGate().takeOver(command.conversationId);
      return { conversationId: command.conversationId };
    },
  } satisfies Partial<Handlers>;
}

/**
 * Another device's proposal for a conversation this device runs (sync), applied through the same compare-and-set as
 * a click here: the first resolution of a request wins wherever it was made, and the loser is told by the records.
 */
export async function applyProposal(deps: CommandHandlerDeps, proposal: Proposal): Promise<{ status: 'applied' } | { status: 'refused'; reason: string }> {
  const { action, conversationId } = proposal;
  try {
    if (action.type === 'resolve') {
      const target = { conversationId, messageId: action.messageId, requestId: action.requestId };
      if (action.argsHash) {
        const block = await deps.store.getRequest(target);
        // Approved on the other device for the arguments it showed: a call whose arguments differ here is not that call.
        if (block?.type === 'tool_call' && argumentsDigest(block.args) !== action.argsHash) return { status: 'refused', reason: 'arguments_changed' };
      }
      const expect = action.request && { kind: action.request.kind, ...(action.request.requestedAt !== undefined ? { requestedAt: action.request.requestedAt } : {}) };
      await resolveHere(deps, target, { approved: action.approved, params: action.params, ...(action.reason !== undefined ? { reason: action.reason } : {}), ...(action.cancel !== undefined ? { cancel: action.cancel } : {}), device: proposal.from, ...(expect ? { expect } : {}) });
    } else if (action.type === 'message') {
      await sendMessage(deps, conversationId, action.text, { messageId: action.messageId, device: proposal.from });
    } else {
      await stopHere(deps, conversationId);
    }
    return { status: 'applied' };
  } catch (error) {
    const reason = error instanceof WireError ? (error.reason ?? error.code) : 'failed';
    return { status: 'refused', reason };
  }
}
