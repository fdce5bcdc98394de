import type { ElicitationRequestBlock, ToolCallBlock } from '../schema/blocks';
import type { DeviceRef } from '../schema/device';
import type { Message, RunState } from '../schema/records';
import type { ErrorReason, ResolvedOutcome } from '../schema/protocol';
import { QuestionAnswer } from '../schema/question';
import { bindingFor } from './approval-binding';
import { checkAnswers, resolveQuestionBlock } from './question-outcomes';
import type { ArgumentsCheck } from './tool';
import { CHAT_INSTEAD_OF_APPROVAL_TEXT, deniedText, skippedAfterInterruptionText, STOPPED_BEFORE_TOOL_TEXT } from './tool-outcomes';
import { z } from 'zod';

/** Seed 003's approval result plus a reason. Answering a question is approval with the answers as params. */
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

// Which block is a request, and whether it is pending: zod-free, for the worker's first screen (see request-ids).
export { findRequest, isPendingRequest, requestIdOf, syncPendingIndex, withPendingIndex, type RequestBlock } from './request-ids';
import { bindingMatches, requestIdOf, withPendingIndex, type RequestBinding, type RequestBlock } from './request-ids';

/** The message with `block` in place of the request of the same id, and its pending-request index field recomputed. */
export function withRequest(message: Message, block: RequestBlock, now: number): Message {
  const id = requestIdOf(block);
  const blocks = message.blocks.map((existing) => (requestIdOf(existing) === id && existing.type === block.type ? block : existing));
  return withPendingIndex({ ...message, blocks, updatedAt: now });
}

export type ResolveResult =
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

const QuestionParams = z.object({ answers: z.array(QuestionAnswer).min(1).max(4) });

/**
 * The resolved block for a pending request, and the conversation's run state after it; or why the params are refused.
 * Pure: the store calls it inside its compare-and-set transaction.
 */
export function resolveRequest(block: RequestBlock, resolution: RequestResolution, context: ResolveContext): ResolveResult {
  if (resolution.expect && !bindingMatches(block, resolution.expect)) {
    return { ok: false, field: 'requestId', reason: 'request_changed', params: {}, message: 'This is not the request that was decided: it was asked again since.' };
  }
  const result = resolveUnstamped(block, resolution, context);
  return result.ok && resolution.device ? { ...result, block: stampDevice(result.block, resolution.device) } : result;
}

/** The resolved block marked with the device where the user decided. */
export function stampDevice(block: RequestBlock, device: DeviceRef): RequestBlock {
  if (block.type === 'tool_call') return block.approval ? { ...block, approval: { ...block.approval, resolvedOn: device } } : block;
  return { ...block, resolvedOn: device };
}

function resolveUnstamped(block: RequestBlock, resolution: RequestResolution, context: ResolveContext): ResolveResult {
  const { now } = context;
  switch (block.type) {
    case 'question_request': {
      if (!resolution.approved) return { ok: true, block: resolveQuestionBlock(block, 'dismissed', { now }), runState: 'idle' };
      const params = QuestionParams.safeParse(resolution.params);
      if (!params.success) return { ok: false, field: 'params.answers', reason: 'answer_count', params: { expected: block.questions.length, got: 0 }, message: 'Answers are missing or malformed.' };
      const check = checkAnswers(block.questions, params.data.answers);
      if (!check.ok) return { ok: false, field: check.field, reason: check.reason, params: check.params, message: check.message };
      return { ok: true, block: resolveQuestionBlock(block, 'answered', { now, answers: check.answers }), runState: 'running' };
    }
    case 'tool_call': {
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
    case 'elicitation_request': {
      if (!resolution.approved) {
        return { ok: true, block: { ...block, status: 'denied', resolution: resolution.cancel ? 'cancelled' : 'declined', resolvedAt: now }, runState: 'running' };
      }
      const check = context.checkContent(block, resolution.params ?? {});
      if (!check.ok) return { ok: false, field: 'params', reason: 'form_invalid', params: { server: block.serverName }, message: check.error };
      return { ok: true, block: { ...block, status: 'success', resolution: 'accepted', content: check.value as Record<string, unknown>, resolvedAt: now }, runState: 'running' };
    }
  }
}

/** A pending request closed because the user replied in chat instead (the message follows as their answer). */
export function resolveByChat(block: RequestBlock, now: number, answerMessageId: string): RequestBlock {
  switch (block.type) {
    case 'question_request':
      return resolveQuestionBlock(block, 'chat', { now, answerMessageId });
    case 'tool_call':
      return { ...block, status: block.approval?.kind === 'rerun' ? 'interrupted' : 'denied', approval: { ...block.approval!, status: 'denied', resolution: 'chat', resolvedAt: now }, result: CHAT_INSTEAD_OF_APPROVAL_TEXT };
    case 'elicitation_request':
      return { ...block, status: 'denied', resolution: 'cancelled', resolvedAt: now };
  }
}

/** A pending request closed by Stop. */
export function resolveByStop(block: RequestBlock, now: number): RequestBlock {
  switch (block.type) {
    case 'question_request':
      return resolveQuestionBlock(block, 'stopped', { now });
    case 'tool_call':
      return { ...block, status: block.approval?.kind === 'rerun' ? 'interrupted' : 'stopped', approval: { ...block.approval!, status: 'denied', resolution: 'stopped', resolvedAt: now }, result: block.approval?.kind === 'rerun' ? skippedAfterInterruptionText() : STOPPED_BEFORE_TOOL_TEXT };
    case 'elicitation_request':
      return { ...block, status: 'denied', resolution: 'stopped', resolvedAt: now };
  }
}

/** What a second resolution is told: how the request was resolved first. */
export function resolvedOutcomeOf(block: RequestBlock): ResolvedOutcome {
  switch (block.type) {
    case 'question_request':
      return { resolution: block.resolution ?? 'answered', ...(block.answers ? { answers: block.answers } : {}), ...(block.resolvedAt ? { resolvedAt: block.resolvedAt } : {}), ...(block.resolvedOn ? { resolvedOn: block.resolvedOn } : {}) };
    case 'tool_call':
      return { resolution: block.approval?.resolution ?? 'approved', ...(block.approval?.resolvedAt ? { resolvedAt: block.approval.resolvedAt } : {}), ...(block.approval?.resolvedOn ? { resolvedOn: block.approval.resolvedOn } : {}) };
    case 'elicitation_request':
      return { resolution: block.resolution ?? 'accepted', ...(block.resolvedAt ? { resolvedAt: block.resolvedAt } : {}), ...(block.resolvedOn ? { resolvedOn: block.resolvedOn } : {}) };
  }
}
