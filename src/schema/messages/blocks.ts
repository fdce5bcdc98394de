import * as z from '../zod-mini';
import { DeviceRef } from '../sync/device';
import { Question, QuestionAnswer, QuestionDraft } from '../forms/question';
import { RequestKind } from './request-kind';

/**
 * `clippedFrom`: set only on the copy of a block the worker sends to the page, when its text was longer than
 * PAGE_TEXT_LIMIT (schema/limits.ts): `text` is then its start, and the whole is `clippedFrom` characters long. Never
 * stored; the page asks for the whole message (`message.whole`) to copy or export it.
 */
const TextBlock = z.object({ type: z.literal('text'), text: z.string(), clippedFrom: z.optional(z.number().check(z.int())) });
type TextBlock = z.infer<typeof TextBlock>;

const ReasoningBlock = z.object({ type: z.literal('reasoning'), text: z.string(), clippedFrom: z.optional(z.number().check(z.int())) });
type ReasoningBlock = z.infer<typeof ReasoningBlock>;

export { RequestKind };

/** MCP tool annotations: the server's hints, shown to the user, never trusted as guarantees. */
export const ToolAnnotations = z.object({
  title: z.optional(z.string().check(z.maxLength(200))),
  readOnlyHint: z.optional(z.boolean()),
  destructiveHint: z.optional(z.boolean()),
  idempotentHint: z.optional(z.boolean()),
  openWorldHint: z.optional(z.boolean()),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

/** Where a tool came from, kept on the record of what ran. */
export const ToolSourceRecord = z.object({
  kind: z.literal('mcp'),
  serverId: z.string().check(z.maxLength(100)),
  serverName: z.string().check(z.maxLength(200)),
  toolName: z.string().check(z.maxLength(200)),
  /** The server URL's origin when the call was made: part of what an approval is bound to. */
  origin: z.optional(z.string().check(z.maxLength(2000))),
  annotations: z.optional(ToolAnnotations),
  /** The tool's input schema, kept while the user may edit the arguments (a form is generated from it where simple). */
  inputSchema: z.optional(z.record(z.string(), z.unknown())),
});
export type ToolSourceRecord = z.infer<typeof ToolSourceRecord>;

/** What an approval was given for (core/requests/approval-binding.ts): execution runs only the call that matches it. */
export const ToolApprovalBinding = z.object({
  toolName: z.string().check(z.maxLength(300)),
  origin: z.string().check(z.maxLength(2000)),
  argsHash: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});
export type ToolApprovalBinding = z.infer<typeof ToolApprovalBinding>;

/**
 * A tool call of the model and its lifecycle: `pending` (received, not yet run), `running` (written before the tool
 * is called, so a crash leaves a record that it may have run), then `success`, `error`, `denied` (by the user or a
 * "Never" permission), `stopped` (Stop before or while it ran) or `interrupted` (cut off by a crash). What the user
 * was asked about it is a `request` block beside it (an approval), never nested in it.
 */
export const ToolCallBlock = z.object({
  type: z.literal('tool_call'),
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
  status: z.enum(['pending', 'running', 'success', 'error', 'denied', 'stopped', 'interrupted']),
  result: z.optional(z.string()),
  source: z.optional(ToolSourceRecord),
  /** The model's arguments, kept when the user edited them before approving (`args` then holds what runs). */
  originalArgs: z.optional(z.unknown()),
  /** Set when the user approves, in this browser; a call without a matching binding never runs by an approval. */
  binding: z.optional(ToolApprovalBinding),
});
export type ToolCallBlock = z.infer<typeof ToolCallBlock>;

export const QuestionResolution = z.enum(['answered', 'chat', 'dismissed', 'stopped']);
export type QuestionResolution = z.infer<typeof QuestionResolution>;

/** `imported`: the call came from an imported file and was closed unrun; approvals are only ever given here. */
export const ApprovalResolution = z.enum(['approved', 'edited', 'denied', 'chat', 'stopped', 'imported']);
export type ApprovalResolution = z.infer<typeof ApprovalResolution>;

const ElicitationResolution = z.enum(['accepted', 'declined', 'cancelled', 'interrupted', 'stopped']);
type ElicitationResolution = z.infer<typeof ElicitationResolution>;

/** What every request stores, whatever its kind (docs/architecture.md, "Requests"). */
const RequestFields = {
  type: z.literal('request'),
  /** What `request.resolve` names: the tool call's id for a question and an approval, the server's request's for a form. */
  requestId: z.string(),
  /** The tool call that asks: a question is its own call; an approval and a form sit beside theirs. */
  toolCallId: z.string(),
  /** `pending` until exactly one resolution is stored. */
  status: z.enum(['pending', 'success', 'denied']),
  /**
   * When the runner asked (its clock). A proposal from another device names it, so an Allow given for one request of
   * a call never decides a later one (a rerun after an interruption). Absent on requests asked before it was kept.
   */
  requestedAt: z.optional(z.number()),
  resolvedAt: z.optional(z.number()),
  /** With sync on: the device where the user decided (it may be another than the one that runs the conversation). */
  resolvedOn: z.optional(DeviceRef),
};

/** The question tool's call: the durable pause. `response.toolResult` is the text the model reads for this call. */
export const QuestionRequest = z.object({
  ...RequestFields,
  kind: z.literal('question'),
  payload: z.object({ questions: z.array(Question) }),
  resolution: z.optional(QuestionResolution),
  response: z.optional(z.object({ answers: z.optional(z.array(QuestionAnswer)), answerMessageId: z.optional(z.string()), toolResult: z.optional(z.string()) })),
  /** The answers being written, kept while the question waits. */
  draft: z.optional(QuestionDraft),
});
export type QuestionRequest = z.infer<typeof QuestionRequest>;

/**
 * The user's decision on a tool call (README, "One pause path"): `permission` asks before a call runs, `rerun` asks
 * what to do with a call that was cut off while it ran (it may or may not have run). Asked again, it is replaced.
 */
export const ApprovalRequest = z.object({
  ...RequestFields,
  kind: z.enum(['permission', 'rerun']),
  payload: z.object({ toolName: z.string() }),
  resolution: z.optional(ApprovalResolution),
  /** What the user wrote when denying; the model reads it. */
  response: z.optional(z.object({ reason: z.optional(z.string().check(z.maxLength(2000))) })),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/**
 * An MCP server asking the user something while one of its tools runs (`elicitation/create`, form mode). Pending while
 * the tool waits; `interrupted` when the app closed meanwhile (the server's request cannot be answered any more).
 */
export const ElicitationRequest = z.object({
  ...RequestFields,
  kind: z.literal('elicitation'),
  payload: z.object({ serverName: z.string().check(z.maxLength(200)), message: z.string().check(z.maxLength(10_000)), requestedSchema: z.record(z.string(), z.unknown()) }),
  resolution: z.optional(ElicitationResolution),
  response: z.optional(z.object({ content: z.optional(z.record(z.string(), z.unknown())) })),
});
export type ElicitationRequest = z.infer<typeof ElicitationRequest>;

/** A request for the user, one stored shape for every kind (docs/architecture.md, "Requests"). */
export const RequestBlock = z.discriminatedUnion('kind', [QuestionRequest, ApprovalRequest, ElicitationRequest]);
export type RequestBlock = z.infer<typeof RequestBlock>;

/** The request of one kind (an approval is one shape for two kinds). */
export type RequestOf<K extends RequestKind> = RequestBlock extends infer R ? (R extends { kind: infer RK } ? (K extends RK ? R : never) : never) : never;

/** How any request was resolved: what a second resolution is told (`already_resolved`). */
export const AnyRequestResolution = z.union(RequestBlock.def.options.map((kind) => kind.shape.resolution.def.innerType));
export type AnyRequestResolution = NonNullable<RequestBlock['resolution']>;

/**
 * What an error's English `message` says, as a code and parameters the UI words in the user's language.
 * `params.said` is the server's or the engine's own words, shown as they came. Absent in records written before it.
 */
export const ErrorDetail = z.object({
  key: z.string().check(z.maxLength(100)),
  params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

const ErrorBlock = z.object({
  type: z.literal('error'),
  code: z.string(),
  message: z.string(),
  detail: z.optional(ErrorDetail),
});
type ErrorBlock = z.infer<typeof ErrorBlock>;

/** A block of a message. A kind whose `text` is a string holds prose: search finds it, and a long one reaches the page clipped. */
export const Block = z.discriminatedUnion('type', [TextBlock, ReasoningBlock, ToolCallBlock, RequestBlock, ErrorBlock]);
export type Block = z.infer<typeof Block>;

/** The block of one kind. */
export type BlockOf<T extends Block['type']> = Extract<Block, { type: T }>;

/** The free-form fields of an import file's blocks (any JSON), as a refusal names them for the UI to word. */
export type ImportPart = 'arguments' | 'original_arguments' | 'input_schema' | 'requested_schema' | 'form_content';

/** A field the schema accepts as any JSON, which an import checks before writing it: its part, an English label, its value. */
export type FreeJsonField = [ImportPart, string, unknown];

/** Each request kind's fields that hold any JSON (see BLOCK_JSON_FIELDS). */
const REQUEST_JSON_FIELDS: { readonly [K in RequestKind]: (request: RequestOf<K>) => FreeJsonField[] } = {
  question: () => [],
  permission: () => [],
  rerun: () => [],
  elicitation: (request) => [
    ['requested_schema', `the form of elicitation "${request.requestId}"`, request.payload.requestedSchema],
    ['form_content', `the answer to elicitation "${request.requestId}"`, request.response?.content],
  ],
};

/**
 * Each block kind's fields that hold any JSON: what an import checks of it (core/transfer/import-checks.ts), declared
 * beside the shapes so a new kind says it here.
 */
export const BLOCK_JSON_FIELDS: { readonly [T in Block['type']]: (block: BlockOf<T>) => FreeJsonField[] } = {
  text: () => [],
  reasoning: () => [],
  error: () => [],
  tool_call: (block) => [
    ['arguments', `the arguments of tool call "${block.toolCallId}"`, block.args],
    ['original_arguments', `the original arguments of tool call "${block.toolCallId}"`, block.originalArgs],
    ['input_schema', `the input schema of tool call "${block.toolCallId}"`, block.source?.inputSchema],
  ],
  request: (block) => (REQUEST_JSON_FIELDS[block.kind] as (request: RequestBlock) => FreeJsonField[])(block),
};
