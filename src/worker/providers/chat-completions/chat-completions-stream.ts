import type { ModelPart } from '../../../core/run/model';
import type { Usage } from '../../../schema/records';
import { ContentChunkShape } from './content-chunk-shape';

/** What ended a Chat Completions stream badly: the caller words it for the user (errors.ts). */
type ChatCompletionsStreamFailure =
  /** A chunk that is not JSON, or not a chunk. */
  | { kind: 'malformed'; detail: string }
  /** An error object inside the 200 stream (OpenRouter, vLLM, LiteLLM send `{ error: { message, code } }`). */
  | { kind: 'provider'; message: string; status?: number }
  /** The stream ended without a finish reason or `[DONE]`: the answer was cut. */
  | { kind: 'cut' };

export class ChatCompletionsStreamError extends Error {
  override readonly name = 'ChatCompletionsStreamError';
  constructor(readonly failure: ChatCompletionsStreamFailure) {
    super(failure.kind === 'malformed' ? failure.detail : failure.kind === 'provider' ? failure.message : 'The stream ended early.');
  }
}

interface ToolCallDraft {
  id: string;
  name: string;
  arguments: string;
}

type Json = Record<string, unknown>;

/**
 * The events of one OpenAI-compatible Chat Completions stream (each event's `data`) → our model parts. Consecutive
 * text (and reasoning) deltas of one batch are merged into one part: a fast server's 50,000 one-token events cross
 * into the loop as a few hundred parts. Tool calls are assembled from index-keyed fragments and given whole at the
 * end, with parsed JSON arguments, or the raw text when they do not parse (our validator tells the model what to fix).
 * Reasoning comes as `reasoning_content` (DeepSeek, vLLM, llama.cpp) or `reasoning` (OpenRouter, Ollama).
 */
export class ChatCompletionsStreamParser {
  private readonly toolCalls: ToolCallDraft[] = [];
  private readonly toolCallsByIndex = new Map<number, ToolCallDraft>();
  private usage: Usage | undefined;
  private finishReason: string | undefined;
  private done = false;
  private sawChunk = false;
  /** The shape of this stream's text-only chunks, read without JSON.parse (content-chunk-shape.ts). */
  private shape: ContentChunkShape | undefined;
  private shapesLearned = 0;

  /** A whole `data: …` event of this stream's text-chunk shape, once one was learned (see ChatCompletionsReader). */
  get textEventPattern(): RegExp | undefined {
    return this.shape?.eventPattern;
  }

  /** Text read from text chunks by the reader's fast path: what push gives for those chunks. */
  pushText(text: string): ModelPart[] {
    this.sawChunk = true;
    return text === '' ? [] : [{ type: 'text-delta', text }];
  }

  /** True once `[DONE]` was read: nothing after it counts. */
  get isDone(): boolean {
    return this.done;
  }

  /**
   * The parts carried by `events`. Throws ChatCompletionsStreamError for a malformed chunk or an error object. With
   * `tail` (the unterminated end of a stream that closed), a chunk that does not parse is a cut, not garbage.
   */
  push(events: readonly string[], options: { tail?: boolean } = {}): ModelPart[] {
    const parts: ModelPart[] = [];
    let text = '';
    let reasoning = '';
    const flush = () => {
      if (reasoning !== '') parts.push({ type: 'reasoning-delta', text: reasoning });
      if (text !== '') parts.push({ type: 'text-delta', text });
      text = '';
      reasoning = '';
    };
    for (const data of events) {
      if (this.done) break;
      if (data === '[DONE]') {
        this.done = true;
        break;
      }
      const content = this.shape?.read(data);
      if (content !== undefined) {
        this.sawChunk = true;
        if (content !== '') {
          if (reasoning !== '') flush();
          text += content;
        }
        continue;
      }
      if (data.trim() === '') continue;
      let chunk: Json;
      try {
        chunk = parseChunk(data);
      } catch (error) {
        if (options.tail) throw new ChatCompletionsStreamError({ kind: 'cut' });
        throw error;
      }
      if (chunk.error !== undefined && chunk.error !== null) throw new ChatCompletionsStreamError(providerFailure(chunk.error));
      this.sawChunk = true;
      const usage = chunk.usage as Json | undefined | null;
      if (usage && typeof usage === 'object') this.usage = toUsage(usage);
      const choices = chunk.choices;
      if (!Array.isArray(choices) || choices.length === 0) continue;
      const choice = choices[0] as Json | null;
      if (!choice || typeof choice !== 'object') continue;
      const delta = choice.delta as Json | undefined | null;
      if (delta && typeof delta === 'object') {
        const thought = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : typeof delta.reasoning === 'string' ? delta.reasoning : '';
        if (thought !== '') {
          // Keep the order the server sent: text before this reasoning goes first.
          if (text !== '') flush();
          reasoning += thought;
        }
        if (typeof delta.content === 'string' && delta.content !== '') {
          if (reasoning !== '') flush();
          text += delta.content;
          // Here the shape (if any) did not fit this text chunk. A server whose chunks differ in more than their text (a
          // per-chunk nonce) would make us learn each time: after a few tries there is no shape, and no fast path to try.
          if (this.shapesLearned < MAX_SHAPES) {
            this.shapesLearned += 1;
            this.shape = ContentChunkShape.learn(data) ?? this.shape;
          } else this.shape = undefined;
        }
        if (Array.isArray(delta.tool_calls)) this.addToolCallFragments(delta.tool_calls);
      }
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.finishReason = choice.finish_reason;
    }
    flush();
    return parts;
  }

  /**
   * The stream ended: the assembled tool calls and the finish. Throws ChatCompletionsStreamError `cut` when neither a
   * finish reason nor `[DONE]` arrived, `malformed` when no chunk did.
   */
  end(): ModelPart[] {
    // Not one chunk: a 200 that was never an event stream (an HTML page, a non-streamed JSON answer).
    if (!this.sawChunk && !this.done) throw new ChatCompletionsStreamError({ kind: 'malformed', detail: 'the answer was not a stream of chat completion chunks' });
    if (!this.done && this.finishReason === undefined) throw new ChatCompletionsStreamError({ kind: 'cut' });
    const parts: ModelPart[] = this.toolCalls.map((call, index) => ({
      type: 'tool-call',
      toolCallId: call.id || `call_${index}`,
      toolName: call.name,
      input: parseArguments(call.arguments),
    }));
    parts.push(this.usage === undefined ? { type: 'finish' } : { type: 'finish', usage: this.usage });
    return parts;
  }

  private addToolCallFragments(fragments: unknown[]): void {
    for (const fragment of fragments) {
      if (!fragment || typeof fragment !== 'object') continue;
      const { index, id } = fragment as { index?: unknown; id?: unknown };
      const functionPart = (fragment as { function?: { name?: unknown; arguments?: unknown } }).function;
      let call = typeof index === 'number' ? this.toolCallsByIndex.get(index) : undefined;
      // Servers that send no index: a new id starts a new call, anything else continues the last one.
      if (call === undefined && typeof index !== 'number') {
        const last = this.toolCalls.at(-1);
        if (last !== undefined && (typeof id !== 'string' || id === '' || id === last.id)) call = last;
      }
      if (call === undefined) {
        call = { id: '', name: '', arguments: '' };
        this.toolCalls.push(call);
        if (typeof index === 'number') this.toolCallsByIndex.set(index, call);
      }
      if (typeof id === 'string' && id !== '' && call.id === '') call.id = id;
      if (typeof functionPart?.name === 'string' && functionPart.name !== '') call.name = call.name === '' ? functionPart.name : call.name;
      if (typeof functionPart?.arguments === 'string') call.arguments += functionPart.arguments;
      // Some servers send arguments as an object rather than JSON text.
      else if (functionPart?.arguments && typeof functionPart.arguments === 'object') call.arguments += JSON.stringify(functionPart.arguments);
    }
  }
}

/** How many times one stream's text-chunk shape is learned: a stream whose chunks never repeat their shape stops paying. */
const MAX_SHAPES = 4;

function parseChunk(data: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new ChatCompletionsStreamError({ kind: 'malformed', detail: `a chunk was not JSON: ${data.slice(0, 80)}` });
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ChatCompletionsStreamError({ kind: 'malformed', detail: 'a chunk was not a JSON object' });
  }
  return value as Json;
}

function providerFailure(error: unknown): ChatCompletionsStreamFailure {
  if (typeof error === 'string') return { kind: 'provider', message: error };
  const { message, code, status } = (error ?? {}) as { message?: unknown; code?: unknown; status?: unknown };
  const number = [code, status].map(Number).find((value) => Number.isInteger(value) && value >= 400 && value <= 599);
  return { kind: 'provider', message: typeof message === 'string' ? message : JSON.stringify(error), ...(number === undefined ? {} : { status: number }) };
}

function toUsage(usage: Json): Usage {
  const result: Usage = {};
  if (typeof usage.prompt_tokens === 'number') result.inputTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number') result.outputTokens = usage.completion_tokens;
  return result;
}

/** Parsed JSON, `{}` for no arguments at all, or the raw text when it does not parse. */
function parseArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
