import * as z from '../../schema/zod-mini';
import type { ApprovalRequest, Block, ElicitationRequest, QuestionRequest, ToolCallBlock } from '../../schema/messages/blocks';
import type { DeviceRef } from '../../schema/sync/device';
import type { Message, RunState } from '../../schema/records';
import type { ErrorReason, ResolvedOutcome } from '../../schema/protocol';
import { QuestionAnswer } from '../../schema/forms/question';
import type { HistoryExchange } from '../run/model';
import { bindingFor } from './approval-binding';
import { checkAnswers, resolveQuestionBlock } from './question-outcomes';
import { questionInHistory } from './question-tool';
import { bindingMatches, withPendingIndex } from './request-ids';
import type { RequestBinding, RequestBlock, RequestKind, RequestOf } from './request-kinds';
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
  /** With sync on: the device where the user decided, stamped on the resolved request (`resolvedOn`). */
  device?: DeviceRef;
  /** The request the user saw and decided (another device's proposal names it): any other is refused, never decided. */
  expect?: RequestBinding;
}

/** A request as resolved or closed, and its tool call when that changes too (an approval decides whether its call runs). */
interface RequestChange<R extends RequestBlock = RequestBlock> {
  request: R;
  call?: ToolCallBlock;
}

type ResolveResult =
  | { ok: true; change: RequestChange; runState: RunState }
  /** Refused params: `reason` and `params` for the UI to word, `message` in English (the checker's words). */
  | { ok: false; field: string; message: string; reason: ErrorReason; params: Record<string, string | number> };

export interface ResolveContext {
  now: number;
  /** Checks edited tool arguments against the tool's schema. */
  checkArgs(call: ToolCallBlock, params: unknown): ArgumentsCheck;
  /** Checks an elicitation's accepted content against the schema the server asked for. */
  checkContent(request: ElicitationRequest, content: unknown): ArgumentsCheck;
}

/**
 * What one kind of request does in core: how the user's response resolves it, how the model is shown it, what a second
 * resolution is told. The page's half is its view (ui/requests/request-views.ts); a kind only a live run can receive is
 * also in LIVE_RUN_ONLY (core/requests/request-kinds.ts), which the first screen reads without loading this.
 * `call` is the tool call the request asks about, when the message holds it. See docs/architecture.md, "Requests".
 */
export interface RequestResolver<R extends RequestBlock> {
  /** The resolved request, with the response checked against what was asked; or why the response is refused. */
  resolve(request: R, call: ToolCallBlock | undefined, resolution: RequestResolution, context: ResolveContext): ResolveResult;
  /** Closed because the user replied in chat instead (the message follows as their answer). */
  closeByChat(request: R, call: ToolCallBlock | undefined, now: number, answerMessageId: string): RequestChange<R>;
  /** Closed by Stop. */
  closeByStop(request: R, call: ToolCallBlock | undefined, now: number): RequestChange<R>;
  /** Its history form: the tool exchange the model is shown for it, if it stands for its call (see core/prompt/history.ts). */
  toHistory(request: R): HistoryExchange | undefined;
  /** How it was resolved, told to a second resolution. */
  outcome(request: R): ResolvedOutcome;
  /** What a second resolution is told, in English (the UI words `already_resolved` itself). */
  alreadyResolved: string;
}

const ALREADY_DECIDED = 'This was already decided, possibly in another tab.';

const QuestionParams = z.object({ answers: z.array(QuestionAnswer).check(z.minLength(1), z.maxLength(4)) });

const QUESTION: RequestResolver<QuestionRequest> = {
  resolve(request, _call, resolution, { now }) {
    if (!resolution.approved) return { ok: true, change: { request: resolveQuestionBlock(request, 'dismissed', { now }) }, runState: 'idle' };
    const params = QuestionParams.safeParse(resolution.params);
    const questions = request.payload.questions;
    if (!params.success) return { ok: false, field: 'params.answers', reason: 'answer_count', params: { expected: questions.length, got: 0 }, message: 'Answers are missing or malformed.' };
    const check = checkAnswers(questions, params.data.answers);
    if (!check.ok) return { ok: false, field: check.field, reason: check.reason, params: check.params, message: check.message };
    return { ok: true, change: { request: resolveQuestionBlock(request, 'answered', { now, answers: check.answers }) }, runState: 'running' };
  },
  closeByChat: (request, _call, now, answerMessageId) => ({ request: resolveQuestionBlock(request, 'chat', { now, answerMessageId }) }),
  closeByStop: (request, _call, now) => ({ request: resolveQuestionBlock(request, 'stopped', { now }) }),
  toHistory: questionInHistory,
  outcome: (request) => ({ resolution: request.resolution ?? 'answered', ...(request.response?.answers ? { answers: request.response.answers } : {}), ...resolvedWhenWhere(request) }),
  alreadyResolved: 'These questions were already answered, possibly in another tab.',
};

const APPROVAL: RequestResolver<ApprovalRequest> = {
  resolve: resolveApproval,
  closeByChat: (request, call, now) => ({
    request: { ...request, status: 'denied', resolution: 'chat', resolvedAt: now },
    ...(call ? { call: { ...call, status: request.kind === 'rerun' ? 'interrupted' : 'denied', result: CHAT_INSTEAD_OF_APPROVAL_TEXT } } : {}),
  }),
  closeByStop: (request, call, now) => {
    const rerun = request.kind === 'rerun';
    const closed: ApprovalRequest = { ...request, status: 'denied', resolution: 'stopped', resolvedAt: now };
    return { request: closed, ...(call ? { call: { ...call, status: rerun ? 'interrupted' : 'stopped', result: rerun ? skippedAfterInterruptionText() : STOPPED_BEFORE_TOOL_TEXT } } : {}) };
  },
  // Its call is shown, with what ran (see core/prompt/history.ts).
  toHistory: () => undefined,
  outcome: (request) => ({ resolution: request.resolution ?? 'approved', ...resolvedWhenWhere(request) }),
  alreadyResolved: ALREADY_DECIDED,
};

function resolveApproval(request: ApprovalRequest, call: ToolCallBlock | undefined, resolution: RequestResolution, context: ResolveContext): ResolveResult {
  const { now } = context;
  if (!call) return { ok: false, field: 'requestId', reason: 'request_changed', params: {}, message: 'The tool call this asked about is gone.' };
  if (!resolution.approved) {
    const reason = resolution.reason?.trim();
    const denied: ApprovalRequest = { ...request, status: 'denied', resolution: 'denied', resolvedAt: now, ...(reason ? { response: { reason } } : {}) };
    // A skipped re-run keeps its "interrupted" record; a refused call is denied. Either way the model is told and goes on.
    if (request.kind === 'rerun') return { ok: true, change: { request: denied, call: { ...call, result: skippedAfterInterruptionText() } }, runState: 'running' };
    return { ok: true, change: { request: denied, call: { ...call, status: 'denied', result: deniedText(reason) } }, runState: 'running' };
  }
  let args = call.args;
  let edited = false;
  if (resolution.params !== undefined && JSON.stringify(resolution.params) !== JSON.stringify(call.args)) {
    const check = context.checkArgs(call, resolution.params);
    if (!check.ok) return { ok: false, field: 'params', reason: 'arguments_invalid', params: { tool: call.toolName }, message: check.error };
    args = check.value;
    edited = true;
  }
  // Bound to what the user saw and approved here: the loop runs nothing that no longer matches it.
  const binding = bindingFor({ toolName: call.toolName, args, source: call.source });
  const approved: ApprovalRequest = { ...request, status: 'success', resolution: edited ? 'edited' : 'approved', resolvedAt: now };
  // Queued again: the loop runs it next, from storage. The schema kept for editing is no longer needed.
  const next: ToolCallBlock = { ...call, args, status: 'pending', binding, ...(edited ? { originalArgs: call.args } : {}) };
  delete next.result;
  if (next.source?.inputSchema) {
    const { inputSchema: _schema, ...source } = next.source;
    next.source = source;
  }
  return { ok: true, change: { request: approved, call: next }, runState: 'running' };
}

const ELICITATION: RequestResolver<ElicitationRequest> = {
  resolve(request, _call, resolution, context) {
    if (!resolution.approved) {
      return { ok: true, change: { request: { ...request, status: 'denied', resolution: resolution.cancel ? 'cancelled' : 'declined', resolvedAt: context.now } }, runState: 'running' };
    }
    const check = context.checkContent(request, resolution.params ?? {});
    if (!check.ok) return { ok: false, field: 'params', reason: 'form_invalid', params: { server: request.payload.serverName }, message: check.error };
    const accepted: ElicitationRequest = { ...request, status: 'success', resolution: 'accepted', response: { content: check.value as Record<string, unknown> }, resolvedAt: context.now };
    return { ok: true, change: { request: accepted }, runState: 'running' };
  },
  closeByChat: (request, _call, now) => ({ request: { ...request, status: 'denied', resolution: 'cancelled', resolvedAt: now } }),
  closeByStop: (request, _call, now) => ({ request: { ...request, status: 'denied', resolution: 'stopped', resolvedAt: now } }),
  // Its tool's own result reports it.
  toHistory: () => undefined,
  outcome: (request) => ({ resolution: request.resolution ?? 'accepted', ...resolvedWhenWhere(request) }),
  alreadyResolved: ALREADY_DECIDED,
};

function resolvedWhenWhere(record: { resolvedAt?: number | undefined; resolvedOn?: DeviceRef | undefined }): Pick<ResolvedOutcome, 'resolvedAt' | 'resolvedOn'> {
  return { ...(record.resolvedAt ? { resolvedAt: record.resolvedAt } : {}), ...(record.resolvedOn ? { resolvedOn: record.resolvedOn } : {}) };
}

const RESOLVERS: { readonly [K in RequestKind]: RequestResolver<RequestOf<K>> } = {
  question: QUESTION,
  permission: APPROVAL,
  rerun: APPROVAL,
  elicitation: ELICITATION,
};

function resolverOf(request: RequestBlock): RequestResolver<RequestBlock> {
  return RESOLVERS[request.kind] as unknown as RequestResolver<RequestBlock>;
}

/** The tool call `request` asks about, if the message holds it. */
function callOf(message: Message, request: RequestBlock): ToolCallBlock | undefined {
  return message.blocks.find((block): block is ToolCallBlock => block.type === 'tool_call' && block.toolCallId === request.toolCallId);
}

/** The message with the request (and its call) of `change` in place, and its pending-request index field recomputed. */
export function withRequest(message: Message, change: RequestChange, now: number): Message {
  const { request, call } = change;
  const blocks = message.blocks.map((block): Block => {
    if (block.type === 'request' && block.requestId === request.requestId) return request;
    if (call && block.type === 'tool_call' && block.toolCallId === call.toolCallId) return call;
    return block;
  });
  return withPendingIndex({ ...message, blocks, updatedAt: now });
}

/**
 * The resolved request (and its call) for a pending request, and the conversation's run state after it; or why the
 * params are refused. Pure: the store calls it inside its compare-and-set transaction.
 */
export function resolveRequest(message: Message, request: RequestBlock, resolution: RequestResolution, context: ResolveContext): ResolveResult {
  if (resolution.expect && !bindingMatches(request, resolution.expect)) {
    return { ok: false, field: 'requestId', reason: 'request_changed', params: {}, message: 'This is not the request that was decided: it was asked again since.' };
  }
  const result = resolverOf(request).resolve(request, callOf(message, request), resolution, context);
  return result.ok && resolution.device ? { ...result, change: { ...result.change, request: stampDevice(result.change.request, resolution.device) } } : result;
}

/** The resolved request marked with the device where the user decided. */
function stampDevice<R extends RequestBlock>(request: R, device: DeviceRef): R {
  return { ...request, resolvedOn: device };
}

/** The message with a pending request closed because the user replied in chat instead (the message follows as their answer). */
export function closeByChat(message: Message, request: RequestBlock, now: number, answerMessageId: string, device?: DeviceRef): Message {
  const change = resolverOf(request).closeByChat(request, callOf(message, request), now, answerMessageId);
  return withRequest(message, device ? { ...change, request: stampDevice(change.request, device) } : change, now);
}

/** The message with a pending request closed by Stop. */
export function closeByStop(message: Message, request: RequestBlock, now: number): Message {
  return withRequest(message, resolverOf(request).closeByStop(request, callOf(message, request), now), now);
}

/** What a second resolution is told: how the request was resolved first. */
export function resolvedOutcomeOf(request: RequestBlock): ResolvedOutcome {
  return resolverOf(request).outcome(request);
}

/** What a second resolution of `request` is told, in English. */
export function alreadyResolvedText(request: RequestBlock): string {
  return resolverOf(request).alreadyResolved;
}

/** How the model is shown `request` (see RequestResolver.toHistory). */
export function requestInHistory(request: RequestBlock): HistoryExchange | undefined {
  return resolverOf(request).toHistory(request);
}
