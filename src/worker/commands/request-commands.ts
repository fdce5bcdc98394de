import { argumentsDigest } from '../../core/approval-binding';
import { requestBindingOf } from '../../core/request-ids';
import type { RequestResolution } from '../../core/requests';
import type { DeviceRef } from '../../schema/device';
import type { Message } from '../../schema/records';
import { WireError } from '../../schema/wire-error';
import { elicitationDead, type RequestTarget } from '../request-records';
import type { CommandHandlerDeps, Handlers } from './command-deps';
import { assertRunsHere } from './runs-elsewhere';

/** Requests waiting for the user (questions, approvals, forms): every answer goes through one compare-and-set. */
export function createRequestHandlers(deps: CommandHandlerDeps) {
  const { store } = deps;
  return {
    // The question form's own words for request.resolve: one compare-and-set path for every request.
    'question.answer': (command) => resolve(deps, { ...command, requestId: command.toolCallId }, { approved: true, params: { answers: command.answers } }),
    'question.dismiss': (command) => resolve(deps, { ...command, requestId: command.toolCallId }, { approved: false }),
    'question.saveDraft': async (command) => {
      assertRunsHere(deps.sync, command.conversationId);
      await store.saveDraft({ ...command, requestId: command.toolCallId }, command.draft);
      return { saved: true as const };
    },
    'request.resolve': (command) => {
      const { type: _type, conversationId, messageId, requestId, ...resolution } = command;
      return resolve(deps, { conversationId, messageId, requestId }, resolution);
    },
    'requests.listPending': () => store.listPendingRequests(),
  } satisfies Partial<Handlers>;
}

/**
 * Resolves a request by compare-and-set, then lets the run go on. A question or an approval starts a run here (the
 * run lock is claimed first: when another tab already resolved it and runs, the compare-and-set says so with the
 * first outcome). An elicitation is answered to the live run that asked, which goes on by itself.
 */
async function resolve(deps: CommandHandlerDeps, target: RequestTarget, resolution: RequestResolution): Promise<{ message: Message; proposedTo?: DeviceRef }> {
  const { store } = deps;
  const elsewhere = deps.sync?.runnerElsewhere(target.conversationId);
  if (elsewhere) {
    const block = await store.getRequest(target);
    const message = await store.getMessage(target.messageId);
    if (!block || !message) throw new WireError({ code: 'not_found', reason: 'request_gone', message: 'This request is no longer here.' });
    const argsHash = block.type === 'tool_call' ? argumentsDigest(block.args) : undefined;
    const proposedTo = await deps.sync!.propose(target.conversationId, `request:${target.messageId}:${target.requestId}`, {
      type: 'resolve', messageId: target.messageId, requestId: target.requestId, approved: resolution.approved,
      ...(resolution.params !== undefined ? { params: resolution.params } : {}),
      ...(resolution.reason !== undefined ? { reason: resolution.reason } : {}),
      ...(resolution.cancel !== undefined ? { cancel: resolution.cancel } : {}),
      ...(argsHash ? { argsHash } : {}),
      request: requestBindingOf(block),
    });
    return { message, proposedTo };
  }
  const device = deps.sync?.device();
  return resolveHere(deps, target, device ? { ...resolution, device } : resolution);
}

/** The compare-and-set of a resolution on this device, which runs the conversation. */
export async function resolveHere(deps: CommandHandlerDeps, target: RequestTarget, resolution: RequestResolution): Promise<{ message: Message }> {
  const { store, runs } = deps;
  const checks = await deps.requestChecks(target.conversationId);
  // The usual case, nobody running the conversation (its lock is free): the compare-and-set is the only transaction
  // before the run, which starts from what it read. An elicitation found there has lost its run: refused, repaired.
  const free = await runs.tryClaim(target.conversationId);
  if (free) {
    try {
      const { message, conversation, run } = await store.resolveRequest(target, resolution, checks, { noLiveRun: true });
      if (conversation.runState === 'running') void runs.start(target.conversationId, free, run);
      else free();
      return { message };
    } catch (error) {
      free();
      if (error instanceof WireError && error.reason === 'elicitation_dead') await runs.recover(target.conversationId);
      throw error;
    }
  }
  const request = await store.getRequest(target);
  if (request?.type === 'elicitation_request' && request.status === 'pending' && !(await runs.isRunningAnywhere(target.conversationId))) {
    await runs.recover(target.conversationId);
    throw elicitationDead();
  }
  if (request?.type === 'elicitation_request') {
    const { message } = await store.resolveRequest(target, resolution, checks);
    return { message };
  }
  const release = await runs.claim(target.conversationId).catch(() => undefined);
  try {
    const { message, conversation, run } = await store.resolveRequest(target, resolution, checks);
    if (conversation.runState === 'running') void runs.start(target.conversationId, release, run);
    else release?.();
    return { message };
  } catch (error) {
    release?.();
    throw error;
  }
}
