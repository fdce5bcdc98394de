import { z } from 'zod';
import { DeviceRef } from './sync/device';
import { Question, QuestionAnswer, QuestionDraft } from './forms/question';

/**
 * `clippedFrom`: set only on the copy of a block the worker sends to the page, when its text was longer than
 * PAGE_TEXT_LIMIT (schema/limits.ts): `text` is then its start, and the whole is `clippedFrom` characters long. Never
 * stored; the page asks for the whole message (`message.whole`) to copy or export it.
 */
const TextBlock = z.object({ type: z.literal('text'), text: z.string(), clippedFrom: z.number().int().optional() });
type TextBlock = z.infer<typeof TextBlock>;

const ReasoningBlock = z.object({ type: z.literal('reasoning'), text: z.string(), clippedFrom: z.number().int().optional() });
type ReasoningBlock = z.infer<typeof ReasoningBlock>;

/**
 * Which request a block asks (core/requests/request-kinds.ts has a descriptor for each): a question, a tool call's permission,
 * whether to run again a call cut off while it ran, an MCP server's form.
 */
export const RequestKind = z.enum(['question', 'permission', 'rerun', 'elicitation']);
export type RequestKind = z.infer<typeof RequestKind>;

/** MCP tool annotations: the server's hints, shown to the user, never trusted as guarantees. */
export const ToolAnnotations = z.object({
  title: z.string().max(200).optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

/** Where a tool came from, kept on the record of what ran. */
export const ToolSourceRecord = z.object({
  kind: z.literal('mcp'),
  serverId: z.string().max(100),
  serverName: z.string().max(200),
  toolName: z.string().max(200),
  /** The server URL's origin when the call was made: part of what an approval is bound to. */
  origin: z.string().max(2000).optional(),
  annotations: ToolAnnotations.optional(),
  /** The tool's input schema, kept while the user may edit the arguments (a form is generated from it where simple). */
  inputSchema: z.record(z.string(), z.unknown()).optional(),
});
export type ToolSourceRecord = z.infer<typeof ToolSourceRecord>;

/** What an approval was given for (core/requests/approval-binding.ts): execution runs only the call that matches it. */
export const ToolApprovalBinding = z.object({
  toolName: z.string().max(300),
  origin: z.string().max(2000),
  argsHash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ToolApprovalBinding = z.infer<typeof ToolApprovalBinding>;

/**
 * The user's decision on a tool call, `{ approved, params }` (README, "One pause path"): `permission` asks before a call runs,
 * `rerun` asks what to do with a call that was cut off while it ran (it may or may not have run).
 */
export const ToolApproval = z.object({
  kind: z.enum(['permission', 'rerun']),
  status: z.enum(['pending', 'success', 'denied']),
  /**
   * When the runner asked (its clock). A proposal from another device names it, so an Allow given for one request of
   * this call never decides a later one (a rerun after an interruption). Absent on approvals asked before it was kept.
   */
  requestedAt: z.number().optional(),
  /** `imported`: the call came from an imported file and was closed unrun; approvals are only ever given here. */
  resolution: z.enum(['approved', 'edited', 'denied', 'chat', 'stopped', 'imported']).optional(),
  /** What the user wrote when denying; the model reads it. */
  reason: z.string().max(2000).optional(),
  /** The model's arguments, kept when the user edited them (`args` then holds what ran). */
  originalArgs: z.unknown().optional(),
  resolvedAt: z.number().optional(),
  /** Set when the user approves, in this browser; an approval without a matching binding never runs anything. */
  binding: ToolApprovalBinding.optional(),
  /** With sync on: the device where the user decided (it may be another than the one that runs the conversation). */
  resolvedOn: DeviceRef.optional(),
});
export type ToolApproval = z.infer<typeof ToolApproval>;

/**
 * A tool call of the model and its lifecycle: `pending` (received, not yet run), `running` (written before the tool
 * is called, so a crash leaves a record that it may have run), then `success`, `error`, `denied` (by the user or a
 * "Never" permission), `stopped` (Stop before or while it ran) or `interrupted` (cut off by a crash).
 */
export const ToolCallBlock = z.object({
  type: z.literal('tool_call'),
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
  status: z.enum(['pending', 'running', 'success', 'error', 'denied', 'stopped', 'interrupted']),
  result: z.string().optional(),
  source: ToolSourceRecord.optional(),
  approval: ToolApproval.optional(),
});
export type ToolCallBlock = z.infer<typeof ToolCallBlock>;

export const QuestionResolution = z.enum(['answered', 'chat', 'dismissed', 'stopped']);
export type QuestionResolution = z.infer<typeof QuestionResolution>;

/**
 * A valid question tool call: the durable pause. `pending` until exactly one resolution is recorded;
 * `toolResult` is the text the model reads for this call.
 */
export const QuestionRequestBlock = z.object({
  type: z.literal('question_request'),
  toolCallId: z.string(),
  questions: z.array(Question),
  status: z.enum(['pending', 'success', 'denied']),
  resolution: QuestionResolution.optional(),
  answers: z.array(QuestionAnswer).optional(),
  draft: QuestionDraft.optional(),
  answerMessageId: z.string().optional(),
  resolvedAt: z.number().optional(),
  /** With sync on: the device where the user decided (it may be another than the one that runs the conversation). */
  resolvedOn: DeviceRef.optional(),
  toolResult: z.string().optional(),
});
export type QuestionRequestBlock = z.infer<typeof QuestionRequestBlock>;

export const ElicitationResolution = z.enum(['accepted', 'declined', 'cancelled', 'interrupted', 'stopped']);
export type ElicitationResolution = z.infer<typeof ElicitationResolution>;

/**
 * An MCP server asking the user something while one of its tools runs (`elicitation/create`, form mode). Pending while
 * the tool waits; `interrupted` when the app closed meanwhile (the server's request cannot be answered any more).
 */
export const ElicitationRequestBlock = z.object({
  type: z.literal('elicitation_request'),
  requestId: z.string(),
  toolCallId: z.string(),
  serverName: z.string().max(200),
  message: z.string().max(10_000),
  requestedSchema: z.record(z.string(), z.unknown()),
  status: z.enum(['pending', 'success', 'denied']),
  resolution: ElicitationResolution.optional(),
  content: z.record(z.string(), z.unknown()).optional(),
  resolvedAt: z.number().optional(),
  /** With sync on: the device where the user decided (it may be another than the one that runs the conversation). */
  resolvedOn: DeviceRef.optional(),
});
export type ElicitationRequestBlock = z.infer<typeof ElicitationRequestBlock>;

/**
 * What an error's English `message` says, as a code and parameters the UI words in the user's language.
 * `params.said` is the server's or the engine's own words, shown as they came. Absent in records written before it.
 */
export const ErrorDetail = z.object({
  key: z.string().max(100),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

const ErrorBlock = z.object({
  type: z.literal('error'),
  code: z.string(),
  message: z.string(),
  detail: ErrorDetail.optional(),
});
type ErrorBlock = z.infer<typeof ErrorBlock>;

export const Block = z.discriminatedUnion('type', [TextBlock, ReasoningBlock, ToolCallBlock, QuestionRequestBlock, ElicitationRequestBlock, ErrorBlock]);
export type Block = z.infer<typeof Block>;
