import * as z from './zod-mini';
import { DeviceRef } from './sync/device';
import { QuestionAnswer } from './forms/question';
import { AnyRequestResolution } from './messages/blocks';
import type { ImportPart, RequestBlock } from './messages/blocks';
import type { AppEvent } from './events';
import type { Conversation, ConversationExport, Message, ProfileView, Settings } from './records';
import type { McpServerView } from './mcp';

import { ERROR_CODES, ERROR_REASONS, type ImportRepair, type ResolvedOutcome as ResolvedOutcomeType, type SerializedError as SerializedErrorType } from './wire-error';

export { WireError, ERROR_CODES, ERROR_REASONS } from './wire-error';

/** Error codes a command reply can carry (the list lives in the zod-free wire-error.ts). */
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** What an already-resolved request looked like when a second resolution arrived. */
export const ResolvedOutcome = z.object({
  resolution: AnyRequestResolution,
  answers: z.optional(z.array(QuestionAnswer)),
  resolvedAt: z.optional(z.number()),
  resolvedOn: z.optional(DeviceRef),
});
export type ResolvedOutcome = ResolvedOutcomeType;

/** What exactly went wrong within a code (the list lives in the zod-free wire-error.ts). */
export const ErrorReason = z.enum(ERROR_REASONS);
export type ErrorReason = z.infer<typeof ErrorReason>;

/** Values the UI puts into its sentence: names, counts, positions. Plain data, never a sentence. */
export const ErrorParams = z.record(z.string(), z.union([z.string(), z.number()]));
export type ErrorParams = z.infer<typeof ErrorParams>;

/**
 * An error as it crosses postMessage: plain data, rebuilt into a WireError on the other side. The UI words it
 * from `code`, `reason` and `params`; `message` is English for developers and logs, never the user's sentence.
 */
export const SerializedError = z.object({
  code: ErrorCode,
  message: z.string(),
  reason: z.optional(ErrorReason),
  params: z.optional(ErrorParams),
  /** Which field of the command was wrong, for invalid_command and invalid_answer. */
  field: z.optional(z.string()),
  outcome: z.optional(ResolvedOutcome),
  repairs: z.optional(
    z.array(z.object({ conversationTitle: z.string(), code: z.enum(['waiting_without_question', 'question_not_waiting', 'extra_pending_question', 'tool_call_not_run']), count: z.optional(z.number()) })),
  ),
});
export type SerializedError = SerializedErrorType;

/** A request waiting for the user, as the inbox lists it (one indexed query over every conversation). */
export interface PendingRequest {
  conversationId: string;
  conversationTitle: string;
  messageId: string;
  /** The stored request itself: the UI's descriptor of its kind (ui/requests/request-views.ts) says how it is listed. */
  request: RequestBlock;
}


export type { ConversationExport };

export type { ImportPart };

export type { ImportRepair };

/** A model profile a backup adds, as the user will find it here: its name (renamed when taken) and its address. */
export interface OfferedProfile {
  name: string;
  baseUrl: string;
  /** Set when the name was taken here: the name in the file, which this profile does not take. */
  nameInFile?: string;
}

/** What a backup's settings add to this browser: which profiles, how many MCP servers, and whether its script. */
export interface SettingsOffer {
  profiles: OfferedProfile[];
  mcpServers: number;
  script: boolean;
}

/**
 * What a connection test found, for the UI to word: a provider failure's code (auth, cors, network…), or one of
 * the test's own outcomes.
 */
export type ConnectionTestReason =
  | 'connected'
  | 'connected_model_missing'
  | 'scripted'
  | 'in_browser'
  | 'missing_settings'
  | 'timeout'
  | 'models_not_found'
  | 'not_a_model_list'
  | 'auth'
  | 'not_found'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'cors'
  | 'bad_stream'
  | 'bad_request'
  | 'context_too_small'
  | 'config'
  | 'images_not_accepted'
  | 'profile_gone'
  | 'key_needed';

/** `message` is English detail (what the server said, what to change); the UI's sentence comes from `reason`. */
export interface ConnectionTestResult {
  ok: boolean;
  message: string;
  reason?: ConnectionTestReason;
  params?: ErrorParams;
  /** The failure's detail as a code and parameters for the UI to word (as a run error's, see ErrorDetail). */
  detail?: { key: string; params?: ErrorParams };
  models?: string[];
}

/** Why an in-browser model cannot be stored or run; `message` is a sentence for the user. */
export interface LocalModelError {
  code: 'bad_source' | 'not_gguf' | 'truncated' | 'network' | 'http' | 'quota' | 'storage' | 'memory' | 'not_stored' | 'load';
  message: string;
}

/** What this device holds of one in-browser model, and how the engine runs it. */
export interface LocalModelStatus {
  source: string;
  /** `paused`: part of it is stored and another tab is downloading it, or nothing is (press Download to go on). */
  state: 'absent' | 'downloading' | 'paused' | 'ready' | 'error';
  storedBytes: number;
  totalBytes?: number;
  bytesPerSecond?: number;
  secondsLeft?: number;
  error?: LocalModelError;
  constrainToolCalls: boolean;
  /** The CPU threads the user chose for this model; 0 = automatic (`automaticThreads`). */
  threadsSetting: number;
  automaticThreads: number;
  crossOriginIsolated: boolean;
  deviceMemoryGb?: number;
  /** Set once the engine has loaded this model in this tab. */
  backend?: 'webgpu' | 'wasm-multi' | 'wasm-single';
  threads?: number;
  lastTokensPerSecond?: number;
}

/** Some of a conversation's messages, oldest first, and how many stored messages come before the first of them. */
export interface MessagePage {
  messages: Message[];
  /**
   * 0 exactly when no stored message on the path comes before them. Counted from positions (seqs), not by reading each:
   * on a line missing some messages (still arriving by sync) it is the span from the first stored one.
   */
  earlier: number;
}

/** Where a match stands in a snippet's text: UTF-16 offsets, `end` exclusive. */
export interface TextRange {
  start: number;
  end: number;
}

/** A piece of stored text around a match, and the matched words' places in it (drawn as marks, never as markup). */
export interface SearchSnippet {
  text: string;
  ranges: TextRange[];
}

/** A conversation's best-matching message in search across conversations: where opening the result scrolls to. */
interface MessageSearchMatch {
  messageId: string;
  seq: number;
  snippet: SearchSnippet;
}

/** One answer of search across conversations: one per matching conversation. */
export interface ConversationSearchResult {
  conversationId: string;
  /** The whole title, with the matched words' places when the title matches (else no ranges). */
  title: SearchSnippet;
  /** Its best-matching message; absent when only the title matches. */
  best?: MessageSearchMatch;
  /** How many of its messages match (every stored version of a message counts). */
  matchingMessages: number;
}

/** A conversation's approximate stored size: its record and its messages, counted as JSON characters. */
export interface ConversationSize {
  conversationId: string;
  title: string;
  bytes: number;
  messages: number;
}

/** What the conversations take: the largest ones first (for "what to delete"), and the total over all of them. */
export interface ConversationSizes {
  largest: ConversationSize[];
  conversations: number;
  totalBytes: number;
}

/** UI → worker. `command` is unknown on the wire: the worker validates it. */
export interface CommandEnvelope {
  kind: 'command';
  id: string;
  command: unknown;
}
export type ReplyEnvelope =
  | { kind: 'reply'; id: string; ok: true; result: unknown }
  | { kind: 'reply'; id: string; ok: false; error: SerializedError };
interface EventEnvelope {
  kind: 'event';
  event: AppEvent;
}
export type WorkerMessage = ReplyEnvelope | EventEnvelope;

/** Where a request is: its conversation, its message, and its id. */
export interface RequestTarget {
  conversationId: string;
  messageId: string;
  requestId: string;
}
