import { z } from 'zod';
import type { ElicitationRequestBlock, QuestionRequestBlock, ToolCallBlock } from '../../schema/blocks';
import type { DeviceRef } from '../../schema/sync/device';
import type { Message, RunState } from '../../schema/records';
import type { ErrorReason, ResolvedOutcome } from '../../schema/protocol';
import { QuestionAnswer } from '../../schema/forms/question';
import { bindingFor } from './approval-binding';
import { checkAnswers, resolveQuestionBlock } from './question-outcomes';
import { bindingMatches, requestIdOf, withPendingIndex } from './request-ids';
import { requestKindOf, type RequestBinding, type RequestBlock } from './request-kinds';
import type { ArgumentsCheck } from '../tools/tool';
import { CHAT_INSTEAD_OF_APPROVAL_TEXT, deniedText, skippedAfterInterruptionText, STOPPED_BEFORE_TOOL_TEXT } from '../tools/tool-outcomes';

// Which block is a request, and whether it is pending: zod-free, for the worker's first screen (see request-ids).
export { findRequest, isPendingRequest, requestIdOf, syncPendingIndex, withPendingIndex, type RequestBlock } from './request-ids';

/** The user's decision, `{ approved, params }` plus a reason. Answering a question is approval with the answers as params. */
export interface RequestResolution {
  approved: boolean;
  params?: unknown;
  reason?: string;
  /** With approved false: dismissed without deciding (MCP "cancel") rather than refused ("decline"). */
  cancel?: boolean;
  /** With sync on: the device where the user decided, stamped on the resolved block (`resolvedOn`). */
  device?: DeviceRef;
  /** The request the user saw and decided (another device's proposal names it): any other is refused, never decided. */
  expect?: RequestBinding;
}

type ResolveResult =
  | { ok: true; block: RequestBlock; runState: RunState }
  /** Refused params: `reason` and `params` for the UI to word, `message` in English (the checker's words). */
  | { ok: false; field: string; message: string; reason: ErrorReason; params: Record<string, string | number> };

export interface ResolveContext {
  now: number;
  /** Checks edited tool arguments against the tool's schema. */
  checkArgs(block: ToolCallBlock, params: unknown): ArgumentsCheck;
  /** Checks an elicitation's accepted content against the schema the server asked for. */
  checkContent(block: ElicitationRequestBlock, content: unknown): ArgumentsCheck;
}

/**
 * How the user's response resolves one kind of request: the second half of its descriptor (core/requests/request-kinds.ts has
 * the first), kept apart because the first screen lists and repairs requests without loading this.
 */
export interface RequestResolver<B extends RequestBlock> {
  /** The resolved block, with the response checked against what was asked; or why the response is refused. */
  resolve(block: B, resolution: RequestResolution, context: ResolveContext): ResolveResult;
  /** Closed because the user replied in chat instead (the message follows as their answer). */
  closeByChat(block: B, now: number, answerMessageId: string): B;
  /** Closed by Stop. */
  closeByStop(block: B, now: number): B;
}

const QuestionParams = z.object({ answers: z.array(QuestionAnswer).min(1).max(4) });

const QUESTION: RequestResolver<QuestionRequestBlock> = {
  resolve(block, resolution, { now }) {
    if (!resolution.approved) return { ok: true, block: resolveQuestionBlock(block, 'dismissed', { now }), runState: 'idle' };
    const params = QuestionParams.safeParse(resolution.params);
    if (!params.success) return { ok: false, field: 'params.answers', reason: 'answer_count', params: { expected: block.questions.length, got: 0 }, message: 'Answers are missing or malformed.' };
    const check = checkAnswers(block.questions, params.data.answers);
    if (!check.ok) return { ok: false, field: check.field, reason: check.reason, params: check.params, message: check.message };
    return { ok: true, block: resolveQuestionBlock(block, 'answered', { now, answers: check.answers }), runState: 'running' };
  },
  closeByChat: (block, now, answerMessageId) => resolveQuestionBlock(block, 'chat', { now, answerMessageId }),
  closeByStop: (block, now) => resolveQuestionBlock(block, 'stopped', { now }),
};

const APPROVAL: RequestResolver<ToolCallBlock> = {
  resolve: resolveApproval,
  closeByChat: (block, now) => ({
    ...block,
    status: block.approval?.kind === 'rerun' ? 'interrupted' : 'denied',
    approval: { ...block.approval!, status: 'denied', resolution: 'chat', resolvedAt: now },
    result: CHAT_INSTEAD_OF_APPROVAL_TEXT,
  }),
  closeByStop: (block, now) => {
    const rerun = block.approval?.kind === 'rerun';
    return { ...block, status: rerun ? 'interrupted' : 'stopped', approval: { ...block.approval!, status: 'denied', resolution: 'stopped', resolvedAt: now }, result: rerun ? skippedAfterInterruptionText() : STOPPED_BEFORE_TOOL_TEXT };
  },
};

function resolveApproval(block: ToolCallBlock, resolution: RequestResolution, context: ResolveContext): ResolveResult {
  const { now } = context;
  const approval = block.approval!;
  if (!resolution.approved) {
    const reason = resolution.reason?.trim();
    const denied = { ...approval, status: 'denied' as const, resolution: 'denied' as const, resolvedAt: now, ...(reason ? { reason } : {}) };
    // A skipped re-run keeps its "interrupted" record; a refused call is denied. Either way the model is told and goes on.
    if (approval.kind === 'rerun') return { ok: true, block: { ...block, approval: denied, result: skippedAfterInterruptionText() }, runState: 'running' };
    return { ok: true, block: { ...block, status: 'denied', approval: denied, result: deniedText(reason) }, runState: 'running' };
  }
  let args = block.args;
  let edited = false;
  if (resolution.params !== undefined && JSON.stringify(resolution.params) !== JSON.stringify(block.args)) {
    const check = context.checkArgs(block, resolution.params);
    if (!check.ok) return { ok: false, field: 'params', reason: 'arguments_invalid', params: { tool: block.toolName }, message: check.error };
    args = check.value;
    edited = true;
  }
  // Bound to what the user saw and approved here: the loop runs nothing that no longer matches it.
  const binding = bindingFor({ toolName: block.toolName, args, source: block.source });
  const approved = { ...approval, status: 'success' as const, resolution: edited ? ('edited' as const) : ('approved' as const), resolvedAt: now, binding, ...(edited ? { originalArgs: block.args } : {}) };
  // Queued again: the loop runs it next, from storage. The schema kept for editing is no longer needed.
  const next: ToolCallBlock = { ...block, args, status: 'pending', approval: approved };
  delete next.result;
  if (next.source?.inputSchema) {
    const { inputSchema: _schema, ...source } = next.source;
    next.source = source;
  }
  return { ok: true, block: next, runState: 'running' };
}

const ELICITATION: RequestResolver<ElicitationRequestBlock> = {
  resolve(block, resolution, context) {
    if (!resolution.approved) {
      return { ok: true, block: { ...block, status: 'denied', resolution: resolution.cancel ? 'cancelled' : 'declined', resolvedAt: context.now }, runState: 'running' };
    }
    const check = context.checkContent(block, resolution.params ?? {});
    if (!check.ok) return { ok: false, field: 'params', reason: 'form_invalid', params: { server: block.serverName }, message: check.error };
    return { ok: true, block: { ...block, status: 'success', resolution: 'accepted', content: check.value as Record<string, unknown>, resolvedAt: context.now }, runState: 'running' };
  },
  closeByChat: (block, now) => ({ ...block, status: 'denied', resolution: 'cancelled', resolvedAt: now }),
  closeByStop: (block, now) => ({ ...block, status: 'denied', resolution: 'stopped', resolvedAt: now }),
};

const RESOLVERS: { readonly [Type in RequestBlock['type']]: RequestResolver<Extract<RequestBlock, { type: Type }>> } = {
  question_request: QUESTION,
  tool_call: APPROVAL,
  elicitation_request: ELICITATION,
};

function resolverOf(block: RequestBlock): RequestResolver<RequestBlock> {
  return RESOLVERS[block.type] as RequestResolver<RequestBlock>;
}

/** The message with `block` in place of the request of the same id, and its pending-request index field recomputed. */
export function withRequest(message: Message, block: RequestBlock, now: number): Message {
  const id = requestIdOf(block);
  const blocks = message.blocks.map((existing) => (requestIdOf(existing) === id && existing.type === block.type ? block : existing));
  return withPendingIndex({ ...message, blocks, updatedAt: now });
}

/**
 * The resolved block for a pending request, and the conversation's run state after it; or why the params are refused.
 * Pure: the store calls it inside its compare-and-set transaction.
 */
export function resolveRequest(block: RequestBlock, resolution: RequestResolution, context: ResolveContext): ResolveResult {
  if (resolution.expect && !bindingMatches(block, resolution.expect)) {
    return { ok: false, field: 'requestId', reason: 'request_changed', params: {}, message: 'This is not the request that was decided: it was asked again since.' };
  }
  const result = resolverOf(block).resolve(block, resolution, context);
  return result.ok && resolution.device ? { ...result, block: stampDevice(result.block, resolution.device) } : result;
}

/** The resolved block marked with the device where the user decided. */
export function stampDevice(block: RequestBlock, device: DeviceRef): RequestBlock {
  return requestKindOf(block)!.stamp(block, device);
}

/** A pending request closed because the user replied in chat instead (the message follows as their answer). */
export function resolveByChat(block: RequestBlock, now: number, answerMessageId: string): RequestBlock {
  return resolverOf(block).closeByChat(block, now, answerMessageId);
}

/** A pending request closed by Stop. */
export function resolveByStop(block: RequestBlock, now: number): RequestBlock {
  return resolverOf(block).closeByStop(block, now);
}

/** What a second resolution is told: how the request was resolved first. */
export function resolvedOutcomeOf(block: RequestBlock): ResolvedOutcome {
  return requestKindOf(block)!.outcome(block);
}
