import type { ErrorDetail } from '../schema/blocks';
import type { Conversation, Message, Usage } from '../schema/records';

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
   * for each step. A file missing here is no longer stored (the model is told so).
   */
  attachments?: ReadonlyMap<string, AttachmentContent>;
}

/** A file's content as a model is given it: an image's bytes, or a text file's text. */
export type AttachmentContent = { kind: 'image'; mediaType: string; bytes: Uint8Array } | { kind: 'text'; text: string };

/** A provider: turns (history, tools) into one step's stream. The loop is ours, not the provider's. */
export interface Model {
  streamStep(request: ModelRequest): AsyncIterable<ModelPart>;
}

export type ModelErrorCode =
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
