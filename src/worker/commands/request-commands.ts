import { argumentsDigest } from '../../core/requests/approval-binding';
import { findRequest, isPendingRequest, requestBindingOf } from '../../core/requests/request-ids';
import { needsLiveRun } from '../../core/requests/request-kinds';
import type { RequestResolution } from '../../core/requests/requests';
import type { Message } from '../../schema/records';
import { WireError } from '../../schema/wire-error';
import type { RequestTarget } from '../../schema/protocol';
import { elicitationDead } from '../requests/request-records';
import type { CommandHandlerDeps, Handlers, Proposers } from './command-deps';

/** Requests waiting for the user (questions, approvals, forms): every answer goes through one compare-and-set. */
export function createRequestHandlers(deps: CommandHandlerDeps) {
  const { store } = deps;
  return {
    'question.saveDraft': async (command) => {
      await store.saveDraft({ ...command, requestId: command.toolCallId }, command.draft);
      return { saved: true as const };
    },
    'request.resolve': async (command, context) => {
      const { type: _type, conversationId, messageId, requestId, expect, ...resolution } = command;
      const target = { conversationId, messageId, requestId };
      // Another device's decision names the request its user saw; one that does not is from a build before that rule.
      if (context.proposed && !expect) throw new WireError({ code: 'invalid_command', reason: 'outdated_device', message: 'The device that sent this runs an older Parley.' });
      if (expect?.argsHash) {
        const message = await store.getMessage(messageId);
        const argsHash = message?.conversationId === conversationId ? approvedArgsHash(message, requestId) : undefined;
        // Approved for the arguments shown there: a call whose arguments differ here is not that call.
        if (argsHash !== undefined && argsHash !== expect.argsHash) throw new WireError({ code: 'invalid_state', reason: 'arguments_changed', message: 'The tool call’s arguments changed since they were approved.' });
      }
      const binding = expect && { kind: expect.kind, ...(expect.requestedAt !== undefined ? { requestedAt: expect.requestedAt } : {}) };
      return resolveHere(deps, target, { ...resolution, ...(context.device ? { device: context.device } : {}), ...(binding ? { expect: binding } : {}) }, context.claim);
    },
    'requests.listPending': () => store.listPendingRequests(),
  } satisfies Partial<Handlers>;
}

/** From a device that does not run the conversation: a decision names the request its user saw (kind, time, arguments). */
export function createRequestProposers(deps: CommandHandlerDeps) {
  return {
    'request.resolve': async (command) => {
      const { conversationId, messageId, requestId } = command;
      // One read on the way out (the answer's path): the request is found in its message.
      const message = await deps.store.getMessage(messageId);
      const block = message?.conversationId === conversationId ? findRequest(message, requestId) : undefined;
      if (!block || !message) throw new WireError({ code: 'not_found', reason: 'request_gone', message: 'This request is no longer here.' });
      const argsHash = approvedArgsHash(message, requestId);
      return { command: { ...command, expect: { ...requestBindingOf(block), ...(argsHash ? { argsHash } : {}) } }, reply: { message } };
    },
  } satisfies Proposers;
}

/** For an approval: the digest of its call's arguments as they stand in `message` (what an Allow is given for). */
function approvedArgsHash(message: Message, requestId: string): string | undefined {
  const request = findRequest(message, requestId);
  if (!request || (request.kind !== 'permission' && request.kind !== 'rerun')) return undefined;
  const call = message.blocks.find((block) => block.type === 'tool_call' && block.toolCallId === request.toolCallId);
  return call?.type === 'tool_call' ? argumentsDigest(call.args) : undefined;
}

/** The compare-and-set of a resolution on this device, which runs the conversation (with a proposal's claim: see CommandContext). */
async function resolveHere(deps: CommandHandlerDeps, target: RequestTarget, resolution: RequestResolution, claim?: string): Promise<{ message: Message }> {
  const { store, runs } = deps;
  const claimed = claim !== undefined ? { claim } : {};
  // The usual case, nobody running the conversation (its lock is free): the compare-and-set is the only transaction
  // before the run, which starts from what it read; an Allow's call is marked running in it, and the tool called at once.
  // An elicitation found there has lost its run: refused, repaired (so no form is checked, and its checker not loaded).
  const free = await runs.tryClaim(target.conversationId);
  if (free) {
    try {
      const { tools, ...checks } = await deps.requestChecks(target.conversationId, { forms: false });
      const { message, conversation, run } = await store.resolveRequest(target, resolution, checks, { noLiveRun: true, ...claimed, ...(tools ? { tools } : {}) });
      if (conversation.runState === 'running') void runs.start(target.conversationId, free, run);
      else free();
      return { message };
    } catch (error) {
      free();
      if (error instanceof WireError && error.reason === 'elicitation_dead') await runs.recover(target.conversationId);
      throw error;
    }
  }
  const { tools, ...checks } = await deps.requestChecks(target.conversationId, { forms: true });
  const request = await store.getRequest(target);
  const liveOnly = request !== undefined && needsLiveRun(request);
  if (liveOnly && isPendingRequest(request) && !(await runs.isRunningAnywhere(target.conversationId))) {
    await runs.recover(target.conversationId);
    throw elicitationDead();
  }
  if (liveOnly) {
    const { message } = await store.resolveRequest(target, resolution, checks, claimed);
    return { message };
  }
  const release = await runs.claim(target.conversationId).catch(() => undefined);
  try {
    // Only a run this command starts from `run` may find its call marked running already (see RunManager.start).
    const { message, conversation, run } = await store.resolveRequest(target, resolution, checks, { ...claimed, ...(release && tools ? { tools } : {}) });
    if (conversation.runState === 'running') void runs.start(target.conversationId, release, run);
    else release?.();
    return { message };
  } catch (error) {
    release?.();
    throw error;
  }
}
