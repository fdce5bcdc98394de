import type { ModelPart, PromptRequest, Provider, ProviderBuildOptions } from '../../core/run/model';
import { ModelError } from '../../core/run/model';
import { instructedMessages } from '../../core/prompt/prompt';
import { sendableBody } from '../../core/request-body';
import type { Profile } from '../../schema/records';
import { chatCompletionsBody } from './chat-completions/chat-completions-request';
import { ChatCompletionsReader } from './chat-completions/chat-completions-reader';
import { ChatCompletionsStreamError } from './chat-completions/chat-completions-stream';
import { abortReason, createRepeatFilter } from './continuation';
import { errorText, httpStatusError, isAbortError, malformedStreamError, scrubSecret, toModelError, type ProviderErrorContext } from './errors';

/**
 * A Model for any OpenAI-compatible chat-completions server (OpenAI, OpenRouter, Groq, Ollama, LM Studio,
 * llama.cpp server, vLLM): `${baseUrl}/chat/completions`, streamed, usage requested. The key (optional: local
 * servers need none) goes as a Bearer token to `profile.baseUrl` and nowhere else.
 *
 * The stream is read by a lean parser (chat-completions-stream.ts) rather than the AI SDK: the SDK's per-chunk
 * pipeline cost about 180 µs of worker CPU per server-sent event, which a fast server's one-token events multiply.
 * Errors are classified by the same rules as the SDK providers (errors.ts).
 */
export function createOpenAiCompatibleModel(profile: Profile, options: ProviderBuildOptions = {}): Provider {
  const baseUrl = profile.baseUrl.replace(/\/+$/, '');
  const errorContext: ProviderErrorContext = {
    baseUrl: profile.baseUrl,
    apiKey: profile.apiKey,
    model: profile.model,
    ...(options.corsHeaders ? { requestHeaders: options.corsHeaders } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (profile.apiKey) headers.authorization = `Bearer ${profile.apiKey}`;

  return {
    async *streamPrompt(request: PromptRequest): AsyncIterable<ModelPart> {
      const context: ProviderErrorContext = { ...errorContext };
      const fail = async (error: unknown): Promise<never> => {
        throw isAbortError(error) || request.signal.aborted ? abortReason(request.signal, error) : await classify(error, context);
      };
      request.signal.throwIfAborted();
      // A trailing assistant message is not continued by Chat Completions servers: a cut reply is continued on instruction.
      const body = chatCompletionsBody(profile.model, instructedMessages(request), request.tools, request.prompt.system, request.sampling);
      let response: Response;
      try {
        response = await (options.fetch ?? globalThis.fetch)(`${baseUrl}/chat/completions`, {
          method: 'POST',
          headers,
          // A long body (a model request carrying images) goes as a Blob (request-body.ts).
          body: sendableBody(JSON.stringify(body), new Headers(headers)),
          signal: request.signal,
        });
      } catch (error) {
        return await fail(error);
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw httpStatusError(response.status, response.headers, errorText(text), context);
      }
      // From here on, a failure is a cut answer, not a refused connection.
      context.midStream = true;
      const reader = response.body?.getReader();
      if (reader === undefined) return await fail(new ChatCompletionsStreamError({ kind: 'cut' }));
      // A model asked to continue may start over: an exact repeat of what is stored is dropped, nothing else.
      yield* readAnswer(reader, new FramePacer(createRepeatFilter(request.continuation?.text ?? '')), fail);
    },
  };
}

/**
 * Deltas are held for at most one frame and given to the loop merged: the first text at once, then at most one part per
 * FRAME_MS however fast the server sends (each part costs the loop a store write and a UI event).
 */
class FramePacer {
  private readonly held: ModelPart[] = [];
  private lastGiven = -Infinity;
  private textGiven = false;

  constructor(private readonly repeat: ReturnType<typeof createRepeatFilter>) {}

  hold(part: ModelPart): void {
    mergeInto(this.held, part);
  }

  /** How long what is held may still wait (≤ 0: give it now); undefined when nothing is held. */
  waitLeft(): number | undefined {
    return this.held.length > 0 ? this.lastGiven + FRAME_MS - performance.now() : undefined;
  }

  /** Whether what is held goes now: the first text at once (the user sees the answer start), else once a frame passed. */
  due(): boolean {
    const firstText = !this.textGiven && this.held.some((part) => part.type === 'text-delta');
    return firstText || performance.now() - this.lastGiven >= FRAME_MS;
  }

  *give(): Generator<ModelPart> {
    if (this.held.length === 0) return;
    for (const part of this.held.splice(0)) {
      if (part.type !== 'text-delta') {
        yield part;
        continue;
      }
      this.textGiven = true;
      const text = this.repeat.accept(part.text);
      if (text !== '') yield { type: 'text-delta', text };
    }
    this.lastGiven = performance.now();
  }

  /** What the repeat filter still held back: it was not a repeat after all. */
  *end(): Generator<ModelPart> {
    const rest = this.repeat.release();
    if (rest !== '') yield { type: 'text-delta', text: rest };
  }
}

/** Reads the server's answer to its end, giving the loop its parts paced by frames; `fail` throws what ended it early. */
async function* readAnswer(reader: ReadableStreamDefaultReader<Uint8Array>, pacer: FramePacer, fail: (error: unknown) => Promise<never>): AsyncGenerator<ModelPart> {
  const decoder = new TextDecoder();
  const completions = new ChatCompletionsReader();
  let pendingRead: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  let reading = true;
  let lastTurn = performance.now();
  try {
    while (reading) {
      // A fast server's answer is already buffered, and every read resolves at once: without a turn of the event loop now
      // and then, the worker would answer nothing (pings, other tabs) until the whole answer was read.
      if (performance.now() - lastTurn >= FRAME_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        lastTurn = performance.now();
      }
      if (pendingRead === undefined) {
        pendingRead = reader.read();
        // Awaited below or on the next turn; a rejection meanwhile (Stop) must not count as unhandled.
        pendingRead.catch(() => {});
      }
      const wait = pacer.waitLeft();
      let chunk: ReadableStreamReadResult<Uint8Array> | typeof FRAME_ENDED;
      try {
        chunk = wait !== undefined && wait > 0 ? await raceTimer(pendingRead, wait) : await pendingRead;
      } catch (error) {
        // What arrived before the failure is the user's: give it, then the error.
        yield* pacer.give();
        return await fail(error);
      }
      if (chunk === FRAME_ENDED) {
        yield* pacer.give();
        continue;
      }
      pendingRead = undefined;
      const parts = chunk.done ? [...completions.push(decoder.decode()), ...completions.close()] : completions.push(decoder.decode(chunk.value, { stream: true }));
      for (const part of parts) pacer.hold(part);
      reading = !chunk.done && !completions.isDone;
      if (!reading || pacer.due()) yield* pacer.give();
    }
    const ending = completions.end();
    yield* pacer.end();
    yield* ending;
  } catch (error) {
    if (!(error instanceof ChatCompletionsStreamError)) throw error;
    yield* pacer.give();
    return await fail(error);
  } finally {
    // After [DONE], on Stop, or when the loop stops reading: let the connection go.
    reader.cancel().catch(() => {});
  }
}

/** How long a delta may wait to be merged with the next ones: one frame at 60 Hz. */
const FRAME_MS = 16;
const FRAME_ENDED = Symbol('frame ended');

/** `read`, or FRAME_ENDED if it takes longer than `ms`; the timer never outlives the race. */
function raceTimer<T>(read: Promise<T>, ms: number): Promise<T | typeof FRAME_ENDED> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = new Promise<typeof FRAME_ENDED>((resolve) => {
    timer = setTimeout(() => resolve(FRAME_ENDED), ms);
  });
  return Promise.race([read, ended]).finally(() => clearTimeout(timer));
}

/** Appends `part`, merging it into the last one when both are text (or both reasoning) deltas. */
function mergeInto(parts: ModelPart[], part: ModelPart): void {
  const last = parts.at(-1);
  if ((part.type === 'text-delta' || part.type === 'reasoning-delta') && last?.type === part.type) parts[parts.length - 1] = { type: part.type, text: last.text + part.text };
  else parts.push(part);
}

/** A stream failure of ours in the words errors.ts uses for the SDK's; anything else through toModelError. */
async function classify(error: unknown, context: ProviderErrorContext): Promise<Error> {
  if (!(error instanceof ChatCompletionsStreamError)) return toModelError(error, context);
  const failure = error.failure;
  if (failure.kind === 'malformed') return malformedStreamError(error, context);
  if (failure.kind === 'provider') {
    if (failure.status !== undefined) return httpStatusError(failure.status, {}, failure.message, context, error);
    const said = scrubSecret(failure.message.slice(0, 400), context.apiKey);
    return new ModelError('bad_stream', `The provider reported an error mid-answer: ${said}`, { cause: error, detail: { key: 'stream_error', params: { said } } });
  }
  // A cut: offline it is the network's (wait), otherwise "use Continue".
  return toModelError(error, context);
}

