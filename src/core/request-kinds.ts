import type { Block, ElicitationRequestBlock, QuestionRequestBlock, RequestKind, ToolCallBlock } from '../schema/blocks';
import type { DeviceRef } from '../schema/device';
import type { PendingRequest } from '../schema/protocol';
import type { RunState } from '../schema/records';
import type { ErrorReason, ResolvedOutcome } from '../schema/wire-error';
import { bindingFor } from './approval-binding';
import { checkAnswers, readAnswers, resolveQuestionBlock } from './question-outcomes';
import type { ArgumentsCheck } from './tool';
import { CHAT_INSTEAD_OF_APPROVAL_TEXT, deniedText, skippedAfterInterruptionText, STOPPED_BEFORE_TOOL_TEXT } from './tool-outcomes';

// Zod-free: the worker's first screen lists and repairs requests through these descriptors before zod loads.

/**
 * A request for the user: a question, a tool call waiting for approval (or for "Run again / Skip" after a crash), or an
 * MCP server's elicitation. Each is a block that is `pending` until exactly one resolution is stored.
 */
export type RequestBlock = QuestionRequestBlock | ElicitationRequestBlock | ToolCallBlock;

/** Which request a block asks: a tool call asks first for permission, and after an interruption whether to run it again. */
export type { RequestKind };

/**
 * What names one request exactly, beyond its id: its kind and, for an approval, when the runner asked. A tool call keeps
 * its id through its permission and any rerun, so an answer given for one must name which (see sync's proposals).
 */
export interface RequestBinding {
  kind: RequestKind;
  requestedAt?: number | undefined;
}

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

/** What the inbox lists of a pending request, beyond where it is. */
type Listed = PendingRequest extends infer Item ? (Item extends unknown ? Omit<Item, 'conversationId' | 'conversationTitle' | 'messageId' | 'requestId'> : never) : never;

/**
 * Everything the app asks of one kind of request; no code outside this file switches over request kinds. A new kind
 * is a block shape in `schema/blocks.ts`, a descriptor here, its form in the UI and its strings (docs/architecture.md,
 * "How to add…").
 */
export interface RequestKindDescriptor<B extends RequestBlock> {
  /** Its id; undefined for a block of this type that is not (and never was) a request (a call that never asked). */
  requestId(block: B): string | undefined;
  isPending(block: B): boolean;
  binding(block: B): RequestBinding;
  /** What the inbox shows of it while it waits. */
  listed(block: B): Listed;
  /** The resolved block, with the user's response checked against what was asked; or why the response is refused. */
  resolve(block: B, resolution: RequestResolution, context: ResolveContext): ResolveResult;
  /** Closed because the user replied in chat instead (the message follows as their answer). */
  closeByChat(block: B, now: number, answerMessageId: string): B;
  /** Closed by Stop. */
  closeByStop(block: B, now: number): B;
  /** Marked with the device where the user decided. */
  stamp(block: B, device: DeviceRef): B;
  /** How it was resolved, told to a second resolution. */
  outcome(block: B): ResolvedOutcome;
  /** What a second resolution is told, in English (the UI words `already_resolved` itself). */
  alreadyResolved: string;
  /**
   * Set for a kind that only the live run that asked can receive (its asker waits in memory beside the stored request):
   * how a pending one is closed when that run is gone. Without it, a request waits in storage across restarts.
   */
  closeWhenRunDies?(block: B, now: number): B;
}

const QUESTION: RequestKindDescriptor<QuestionRequestBlock> = {
  requestId: (block) => block.toolCallId,
  isPending: (block) => block.status === 'pending',
  binding: () => ({ kind: 'question' }),
  listed: (block) => ({ kind: 'question', questions: block.questions }),
  resolve(block, resolution, { now }) {
    if (!resolution.approved) return { ok: true, block: resolveQuestionBlock(block, 'dismissed', { now }), runState: 'idle' };
    const answers = readAnswers(resolution.params);
    if (!answers) return { ok: false, field: 'params.answers', reason: 'answer_count', params: { expected: block.questions.length, got: 0 }, message: 'Answers are missing or malformed.' };
    const check = checkAnswers(block.questions, answers);
    if (!check.ok) return { ok: false, field: check.field, reason: check.reason, params: check.params, message: check.message };
    return { ok: true, block: resolveQuestionBlock(block, 'answered', { now, answers: check.answers }), runState: 'running' };
  },
  closeByChat: (block, now, answerMessageId) => resolveQuestionBlock(block, 'chat', { now, answerMessageId }),
  closeByStop: (block, now) => resolveQuestionBlock(block, 'stopped', { now }),
  stamp: (block, device) => ({ ...block, resolvedOn: device }),
  outcome: (block) => ({ resolution: block.resolution ?? 'answered', ...(block.answers ? { answers: block.answers } : {}), ...resolvedWhenWhere(block) }),
  alreadyResolved: 'These questions were already answered, possibly in another tab.',
};

const APPROVAL: RequestKindDescriptor<ToolCallBlock> = {
  requestId: (block) => (block.approval ? block.toolCallId : undefined),
  isPending: (block) => block.approval?.status === 'pending',
  binding: (block) => ({ kind: block.approval?.kind ?? 'permission', ...(block.approval?.requestedAt !== undefined ? { requestedAt: block.approval.requestedAt } : {}) }),
  listed: (block) => ({ kind: 'approval', toolName: block.toolName, approval: block.approval }),
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
  stamp: (block, device) => (block.approval ? { ...block, approval: { ...block.approval, resolvedOn: device } } : block),
  outcome: (block) => ({ resolution: block.approval?.resolution ?? 'approved', ...resolvedWhenWhere(block.approval ?? {}) }),
  alreadyResolved: 'This was already decided, possibly in another tab.',
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

const ELICITATION: RequestKindDescriptor<ElicitationRequestBlock> = {
  requestId: (block) => block.requestId,
  isPending: (block) => block.status === 'pending',
  binding: () => ({ kind: 'elicitation' }),
  listed: (block) => ({ kind: 'elicitation', serverName: block.serverName, message: block.message }),
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
  stamp: (block, device) => ({ ...block, resolvedOn: device }),
  outcome: (block) => ({ resolution: block.resolution ?? 'accepted', ...resolvedWhenWhere(block) }),
  alreadyResolved: 'This was already decided, possibly in another tab.',
  closeWhenRunDies: (block, now) => ({ ...block, status: 'denied', resolution: 'interrupted', resolvedAt: now }),
};

function resolvedWhenWhere(record: { resolvedAt?: number | undefined; resolvedOn?: DeviceRef | undefined }): Pick<ResolvedOutcome, 'resolvedAt' | 'resolvedOn'> {
  return { ...(record.resolvedAt ? { resolvedAt: record.resolvedAt } : {}), ...(record.resolvedOn ? { resolvedOn: record.resolvedOn } : {}) };
}

/** The descriptor of each block type that may hold a request. */
export const REQUEST_KINDS: { readonly [Type in RequestBlock['type']]: RequestKindDescriptor<Extract<RequestBlock, { type: Type }>> } = {
  question_request: QUESTION,
  tool_call: APPROVAL,
  elicitation_request: ELICITATION,
};

/** The descriptor for `block`'s type, if that type may hold a request (whether or not this block is one). */
export function requestKindOf<B extends Block>(block: B): RequestKindDescriptor<Extract<B, RequestBlock>> | undefined {
  return (REQUEST_KINDS as Partial<Record<Block['type'], RequestKindDescriptor<never>>>)[block.type] as RequestKindDescriptor<Extract<B, RequestBlock>> | undefined;
}

/** Whether only the live run that asked can receive `block`'s answer (see `closeWhenRunDies`). */
export function needsLiveRun(block: Block): boolean {
  return requestKindOf(block)?.closeWhenRunDies !== undefined;
}
