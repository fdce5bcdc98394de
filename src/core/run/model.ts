import type { ErrorDetail } from '../../schema/messages/blocks';
import type { Conversation, Message, Profile, Usage } from '../../schema/records';

/** One piece of a model step's stream. A step ends when its stream ends. */
export type ModelPart =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  /** `input` is the parsed JSON the model sent, or the raw text when it was not valid JSON. */
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  /** Something the user should know about how this reply is made (stored on the message, worded by the UI). */
  | { type: 'notice'; notice: ErrorDetail }
  | { type: 'finish'; usage?: Usage };

/** A tool as a model sees it. `inputSchema` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Every call of it asks the user (the question tool): a small model may be held to such a call (see Tool.ask). */
  asksUser?: boolean;
}

export interface ModelRequest {
  conversation: Conversation;
  /**
   * Stored messages, oldest first. When `continuation` is set, the last one is the interrupted
   * assistant message whose text the model should carry on from.
   */
  history: Message[];
  tools: ToolSpec[];
  continuation?: { messageId: string; text: string };
  signal: AbortSignal;
  /**
   * The bytes of the files the history's messages hold (`message.attachments`), by attachment id: read back from storage
   * for each step. A file missing here is no longer stored, one `syncing` not here yet (the model is told which).
   */
  attachments?: ReadonlyMap<string, AttachmentContent>;
}

/** A file of a user message as the prompt gives it; `attachment` says which stored file it is (never sent). */
export type PromptUserPart =
  | { type: 'text'; text: string; attachment?: PromptAttachment }
  | { type: 'file'; mediaType: string; data: Uint8Array; filename: string; attachment: PromptAttachment };

/**
 * Which file of the message a part gives: its name as shown, its type, and its size as given (absent: not given, because
 * it is no longer stored, or `syncing`: it has not reached this device yet).
 */
interface PromptAttachment {
  name: string;
  mimeType: string;
  bytes?: number;
  syncing?: true;
}

export type PromptAssistantPart = { type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: Record<string, unknown> };

/** A tool call's result: its text, and whether the call failed (the model is told so). */
export interface PromptToolResult {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: { type: 'text' | 'error-text'; value: string };
}

/** One message of the normalised prompt (the shape of the AI SDK's `ModelMessage`, without a system role). */
export type PromptMessage =
  | { role: 'user'; content: string | PromptUserPart[] }
  | { role: 'assistant'; content: PromptAssistantPart[] }
  | { role: 'tool'; content: PromptToolResult[] };

/** A finished tool exchange as the model is shown it: the call, and its result right after. */
export interface HistoryExchange {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  output: PromptToolResult['output'];
}

/** What a model request says, built once by core (`core/prompt/prompt.ts`) from the stored conversation. */
export interface Prompt {
  /** Parley's own prompt, then the user's instructions; absent when there is neither. */
  system?: string;
  messages: PromptMessage[];
}

/** The profile's sampling settings that are set; absent ones are left to the provider. */
export interface Sampling {
  temperature?: number;
  maxOutputTokens?: number;
}

/** One model step as a provider is given it: the normalised prompt, never the app's records. */
export interface PromptRequest {
  prompt: Prompt;
  tools: ToolSpec[];
  sampling: Sampling;
  /**
   * Set when the prompt ends with an interrupted reply the model should carry on from (its trailing whitespace trimmed):
   * the text it has so far, which a model that starts over must not repeat.
   */
  continuation?: { text: string };
  /** How many model steps the conversation has completed (the scripted model answers step n with its step n). */
  completedSteps: number;
  signal: AbortSignal;
}

/** A provider kind's code: adapts the normalised prompt to its API and streams one step. */
export interface Provider {
  streamPrompt(request: PromptRequest): AsyncIterable<ModelPart>;
}

/** What a provider kind is built with besides its profile. */
export interface ProviderBuildOptions {
  /** A fetch to use instead of the global one (tests pass a browser-like one that enforces CORS). */
  fetch?: typeof fetch;
  /** The Built-in demo's script, which the scripted kind runs. */
  script?: string;
  /** The request headers a server's CORS settings must allow (its kind's `corsHeaders`), named in the advice. */
  corsHeaders?: readonly string[];
}

/** How a provider kind's code builds its Provider for a profile; a profile it cannot run is a ModelError 'config'. */
export type ProviderFactory = (profile: Profile, options: ProviderBuildOptions) => Provider | Promise<Provider>;

/** A file's content as a model is given it: an image's bytes, or a text file's text. */
/**
 * A file's content for a model step; `syncing`: another device sent it, and it has not reached this one yet (`said` is
 * what the model is told instead, worded where files are read, off a first conversation's path).
 */
export type AttachmentContent = { kind: 'image'; mediaType: string; bytes: Uint8Array } | { kind: 'text'; text: string } | { kind: 'syncing'; said: string };

/** A provider: turns (history, tools) into one step's stream. The loop is ours, not the provider's. */
export interface Model {
  streamStep(request: ModelRequest): AsyncIterable<ModelPart>;
}

type ModelErrorCode =
  | 'auth' // 401/403: bad or missing key
  | 'not_found' // 404: unknown model or wrong base URL
  | 'rate_limited' // 429
  | 'server' // 5xx
  | 'network' // offline or unreachable
  | 'cors' // the server did not allow this origin
  | 'bad_stream' // cut or malformed stream
  | 'bad_request' // 400 and other 4xx
  | 'context_too_small' // even one message does not fit in the model's context: choose a larger-context model
  | 'config' // the profile is incomplete
  | 'images_not_accepted' // the history holds an image and the model takes none: said before any request
  | 'profile_gone' // the conversation's profile was deleted: the user picks another
  | 'key_needed'; // a profile synced from another device without its key: the user types it on this one

/** A provider failure, classified so the loop can decide: wait, retry, or stop with a message. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  readonly code: ModelErrorCode;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** The message as a code and parameters, for the UI to word (see ErrorDetail). */
  readonly detail?: ErrorDetail;
  constructor(code: ModelErrorCode, message: string, options?: { cause?: unknown; status?: number; retryAfterMs?: number; detail?: ErrorDetail }) {
    super(message, { cause: options?.cause });
    this.code = code;
    if (options?.detail !== undefined) this.detail = options.detail;
    if (options?.status !== undefined) this.status = options.status;
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** How long to wait before retrying a failed step, or undefined when it should not be retried. */
export function retryDelay(error: unknown, attempt: number, maxRetries: number): number | undefined {
  if (!(error instanceof ModelError) || attempt >= maxRetries) return undefined;
  if (error.code !== 'rate_limited' && error.code !== 'server') return undefined;
  if (error.code === 'server' && attempt >= 2) return undefined;
  return Math.min(60_000, error.retryAfterMs ?? 1000 * 2 ** attempt);
}
