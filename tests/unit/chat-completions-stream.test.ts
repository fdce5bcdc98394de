import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModelError, type ModelPart } from '../../src/core/run/model';
import { toolSpecs } from '../../src/core/tools/tools';
import { ChatCompletionsStreamError, ChatCompletionsStreamParser } from '../../src/worker/providers/chat-completions/chat-completions-stream';
import { createOpenAiCompatibleModel } from '../../src/worker/providers/openai-compatible';
import { promptedModel } from '../../src/core/prompt/prompt';
import { SseDecoder } from '../../src/worker/providers/chat-completions/sse-decoder';
import type { Conversation, Profile } from '../../src/schema/records';
import { mergeDeltas } from './model-parts';

const encoder = new TextEncoder();

/** Decodes `bytes` delivered in the given pieces, as the provider would read them off the network. */
function decode(bytes: Uint8Array, cuts: readonly number[]): string[] {
  const text = new TextDecoder();
  const sse = new SseDecoder();
  const events: string[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...sse.push(text.decode(bytes.subarray(start, cut), { stream: true })));
    start = cut;
  }
  events.push(...sse.push(text.decode()), ...sse.end());
  return events;
}

/** Every way of cutting `bytes` in two, then one byte at a time. */
function everySplit(bytes: Uint8Array): number[][] {
  const splits: number[][] = [[]];
  for (let cut = 1; cut < bytes.length; cut += 1) splits.push([cut]);
  splits.push(Array.from({ length: bytes.length - 1 }, (_, index) => index + 1));
  return splits;
}

/** Decoder and parser together; the parts, with consecutive deltas merged so any batching compares equal. */
function parse(bytes: Uint8Array, cuts: readonly number[] = []): { parts: ModelPart[]; failure?: ChatCompletionsStreamError['failure'] } {
  const text = new TextDecoder();
  const sse = new SseDecoder();
  const parser = new ChatCompletionsStreamParser();
  const parts: ModelPart[] = [];
  let start = 0;
  try {
    for (const cut of [...cuts, bytes.length]) {
      parts.push(...parser.push(sse.push(text.decode(bytes.subarray(start, cut), { stream: true }))));
      start = cut;
      if (parser.isDone) break;
    }
    if (!parser.isDone) parts.push(...parser.push(sse.push(text.decode())));
    if (!parser.isDone) parts.push(...parser.push(sse.end(), { tail: true }));
    parts.push(...parser.end());
    return { parts: mergeDeltas(parts) };
  } catch (error) {
    if (!(error instanceof ChatCompletionsStreamError)) throw error;
    return { parts: mergeDeltas(parts), failure: error.failure };
  }
}

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }], ...extra });
const finish = (reason: string) => JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: {}, finish_reason: reason }] });
const usage = JSON.stringify({ id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 12, completion_tokens: 34, total_tokens: 46 } });

/** SSE text from data payloads and raw lines, with the given line ending. */
function sse(items: ReadonlyArray<string | { raw: string }>, newline = '\n'): Uint8Array {
  const text = items.map((item) => (typeof item === 'string' ? `data: ${item}${newline}${newline}` : item.raw.replaceAll('\n', newline))).join('');
  return encoder.encode(text);
}

const QUESTION_ARGS = { questions: [{ header: 'Café ☕', question: 'Which “brew”? 🍵', options: [{ label: 'Espresso' }, { label: 'Latte' }] }] };
const questionJson = JSON.stringify(QUESTION_ARGS).replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A realistic stream: role chunk, keep-alive, reasoning, text with multi-byte characters, two interleaved tool calls. */
const FULL_STREAM = sse([
  chunk({ role: 'assistant', content: '' }),
  { raw: ': keep-alive\n\n' },
  chunk({ reasoning_content: 'Thinking… ' }),
  chunk({ reasoning: 'done.' }),
  chunk({ content: 'Héllo, ' }),
  chunk({ content: 'wörld 🌍!' }),
  chunk({ tool_calls: [{ index: 0, id: 'call_q', type: 'function', function: { name: 'question', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 1, id: 'call_t', type: 'function', function: { name: 'get_current_time', arguments: '{' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: questionJson.slice(0, 9) } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: '}' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: questionJson.slice(9) } }] }),
  finish('tool_calls'),
  usage,
  '[DONE]',
]);

const FULL_PARTS: ModelPart[] = [
  { type: 'reasoning-delta', text: 'Thinking… done.' },
  { type: 'text-delta', text: 'Héllo, wörld 🌍!' },
  { type: 'tool-call', toolCallId: 'call_q', toolName: 'question', input: QUESTION_ARGS },
  { type: 'tool-call', toolCallId: 'call_t', toolName: 'get_current_time', input: {} },
  { type: 'finish', usage: { inputTokens: 12, outputTokens: 34 } },
];

describe('SseDecoder', () => {
  const wire = (newline: string) =>
    encoder.encode(['data: one', '', ': a comment', 'event: message', 'id: 7', 'data:two-a', 'data:  two-b', 'retry: 10', '', 'garbage line', 'data: thrée ✓', '', ''].join(newline));

  it.each([['LF', '\n'], ['CRLF', '\r\n'], ['CR', '\r']])('reads %s line endings split at every byte', (_name, newline) => {
    const bytes = wire(newline);
    for (const cuts of everySplit(bytes)) expect(decode(bytes, cuts)).toEqual(['one', 'two-a\n two-b', 'thrée ✓']);
  });

  it('dispatches a last event the server did not end with a blank line, and an unterminated last line', () => {
    expect(decode(encoder.encode('data: a\n\ndata: [DONE]\n'), [])).toEqual(['a', '[DONE]']);
    expect(decode(encoder.encode('data: a\n\ndata: [DONE]'), [])).toEqual(['a', '[DONE]']);
  });

  it('ignores comments, empty data lines stay empty, a byte-order mark is dropped', () => {
    expect(decode(encoder.encode('\uFEFF: ping\n\n:\n\ndata\n\ndata:\n\n'), [])).toEqual(['', '']);
  });
});

describe('ChatCompletionsStreamParser', () => {
  it('gives reasoning, text, index-keyed tool calls and usage, whatever the byte boundaries', () => {
    for (const cuts of everySplit(FULL_STREAM)) expect(parse(FULL_STREAM, cuts)).toEqual({ parts: FULL_PARTS });
  });

  it('gives the same parts with CRLF line endings', () => {
    const text = new TextDecoder().decode(FULL_STREAM).replaceAll('\n', '\r\n');
    const bytes = encoder.encode(text);
    for (const cuts of everySplit(bytes).filter((_, index) => index % 7 === 0)) expect(parse(bytes, cuts)).toEqual({ parts: FULL_PARTS });
  });

  it('merges the deltas of one read into one part', () => {
    const parser = new ChatCompletionsStreamParser();
    const parts = parser.push(Array.from({ length: 1000 }, (_, index) => chunk({ content: ` w${index}` })));
    expect(parts).toHaveLength(1);
    expect(parts[0]).toEqual({ type: 'text-delta', text: Array.from({ length: 1000 }, (_, index) => ` w${index}`).join('') });
  });

  it('keeps the order of reasoning and text when they alternate', () => {
    const bytes = sse([chunk({ reasoning_content: 'a' }), chunk({ content: 'b' }), chunk({ reasoning_content: 'c' }), chunk({ content: 'd' }), finish('stop')]);
    expect(parse(bytes).parts).toEqual([
      { type: 'reasoning-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'reasoning-delta', text: 'c' },
      { type: 'text-delta', text: 'd' },
      { type: 'finish' },
    ]);
  });

  it('ignores anything after [DONE], and a stream that ends after its finish reason without [DONE] is whole', () => {
    expect(parse(sse([chunk({ content: 'ok' }), finish('stop'), '[DONE]', 'not json at all'])).parts).toEqual([{ type: 'text-delta', text: 'ok' }, { type: 'finish' }]);
    expect(parse(sse([chunk({ content: 'ok' }), finish('stop')])).parts).toEqual([{ type: 'text-delta', text: 'ok' }, { type: 'finish' }]);
  });

  it('reports a stream that ends without a finish reason or [DONE] as cut, after the text it had', () => {
    const bytes = sse([chunk({ content: 'half an ans' })]);
    expect(parse(bytes)).toEqual({ parts: [{ type: 'text-delta', text: 'half an ans' }], failure: { kind: 'cut' } });
    // A clean end in the middle of an event: the half event is not a malformed chunk, the answer was cut.
    const cutInside = encoder.encode(`data: ${chunk({ content: 'a' })}\n\ndata: {"id":"chatcmpl-1","choi`);
    expect(parse(cutInside).failure).toEqual({ kind: 'cut' });
  });

  it('reports a 200 answer that holds no chunk at all (an HTML page, a non-streamed answer) as malformed, not cut', () => {
    expect(parse(encoder.encode('<!doctype html><title>Not an API</title>\n')).failure).toMatchObject({ kind: 'malformed' });
    expect(parse(encoder.encode('{"id":"x","choices":[{"message":{"content":"hi"}}]}')).failure).toMatchObject({ kind: 'malformed' });
  });

  it('reports a chunk that is not JSON, or not an object, as malformed', () => {
    expect(parse(sse([chunk({ content: 'a' }), 'not json at all }'])).failure).toMatchObject({ kind: 'malformed' });
    expect(parse(sse(['[1, 2]'])).failure).toMatchObject({ kind: 'malformed' });
  });

  it('reports an error object in the stream with its HTTP-like code', () => {
    expect(parse(sse([chunk({ content: 'Start' }), JSON.stringify({ error: { message: 'Overloaded', code: 502 } })])).failure).toEqual({ kind: 'provider', message: 'Overloaded', status: 502 });
    expect(parse(sse([JSON.stringify({ error: { message: 'Rate limited', code: 'rate_limit_exceeded', status: 429 } })])).failure).toEqual({ kind: 'provider', message: 'Rate limited', status: 429 });
    expect(parse(sse([JSON.stringify({ error: 'Something broke' })])).failure).toEqual({ kind: 'provider', message: 'Something broke' });
  });

  it('is lenient about tool calls: no index, whole arguments at once, arguments as an object, arguments that do not parse', () => {
    const bytes = sse([
      chunk({ tool_calls: [{ id: 'a', function: { name: 'get_current_time', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ id: 'b', function: { name: 'question', arguments: '{"questions": [' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '{"header": "oops"' } }] }),
      chunk({ tool_calls: [{ index: 5, id: 'c', function: { name: 'question', arguments: { questions: [] } } }] }),
      chunk({ tool_calls: [{ index: 6, id: 'd', function: { name: 'get_current_time' } }] }),
      finish('tool_calls'),
    ]);
    expect(parse(bytes).parts).toEqual([
      { type: 'tool-call', toolCallId: 'a', toolName: 'get_current_time', input: {} },
      { type: 'tool-call', toolCallId: 'b', toolName: 'question', input: '{"questions": [{"header": "oops"' },
      { type: 'tool-call', toolCallId: 'c', toolName: 'question', input: { questions: [] } },
      { type: 'tool-call', toolCallId: 'd', toolName: 'get_current_time', input: {} },
      { type: 'finish' },
    ]);
  });

  it('skips chunks without choices or delta and empty content', () => {
    const bytes = sse([JSON.stringify({ id: 'x', choices: [] }), JSON.stringify({ choices: [{ index: 0 }] }), chunk({ content: null }), chunk({ content: 'x' }), finish('length')]);
    expect(parse(bytes).parts).toEqual([{ type: 'text-delta', text: 'x' }, { type: 'finish' }]);
  });
});

describe('the OpenAI-compatible model over a byte stream', () => {
  afterEach(() => vi.useRealTimers());
  const profile: Profile = { id: 'p', name: 'Test', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1/', apiKey: 'sk-unit-0123456789abcdef', model: 'm' };
  const conversation: Conversation = { id: 'c', title: 'T', createdAt: 0, updatedAt: 0, runState: 'running', completedSteps: 0 };
  const history = [{ id: 'u', conversationId: 'c', seq: 0, role: 'user' as const, blocks: [{ type: 'text' as const, text: 'hi' }], status: 'complete' as const, createdAt: 0, updatedAt: 0 }];

  /** A fetch answering 200 with `bytes` delivered in pieces at `cuts` (then, with `fail`, a read error). */
  function streamingFetch(bytes: Uint8Array, cuts: readonly number[], calls: Array<{ url: string; init: RequestInit | undefined }>, fail?: Error): typeof fetch {
    return async (input, init) => {
      calls.push({ url: String(input), init });
      const bounds = [0, ...cuts, bytes.length];
      let index = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (index < bounds.length - 1) {
            controller.enqueue(bytes.slice(bounds[index], bounds[index + 1]));
            index += 1;
          } else if (fail) controller.error(fail);
          else controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
  }

  async function run(fetchImplementation: typeof fetch) {
    const model = promptedModel(createOpenAiCompatibleModel(profile, { fetch: fetchImplementation }));
    const parts: ModelPart[] = [];
    try {
      for await (const part of model.streamStep({ conversation, history, tools: toolSpecs(), signal: new AbortController().signal })) parts.push(part);
      return { parts };
    } catch (error) {
      return { parts, error };
    }
  }

  it('gives the same parts whatever the network boundaries, and posts to the base URL only', async () => {
    const splits = everySplit(FULL_STREAM).filter((_, index) => index % 13 === 0);
    for (const cuts of splits) {
      const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
      const { parts, error } = await run(streamingFetch(FULL_STREAM, cuts, calls));
      expect(error).toBeUndefined();
      expect(mergeDeltas(parts)).toEqual(FULL_PARTS);
      expect(calls.map((call) => call.url)).toEqual(['http://127.0.0.1:9/v1/chat/completions']);
      expect(new Headers(calls[0]?.init?.headers).get('authorization')).toBe(`Bearer ${profile.apiKey}`);
    }
  });

  it('gives the first text at once, then merges what arrives within a frame into one part for the loop', async () => {
    // Time stands still: every read after the first text lands in the same frame.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const words = Array.from({ length: 1000 }, (_, index) => ` w${index}`);
    const bytes = sse([...words.map((word) => chunk({ content: word })), finish('stop'), '[DONE]']);
    const boundaries: number[] = [];
    const text = new TextDecoder().decode(bytes);
    for (let index = text.indexOf('\n\n'); index >= 0; index = text.indexOf('\n\n', index + 2)) boundaries.push(index + 2);
    const { parts, error } = await run(streamingFetch(bytes, boundaries.slice(0, -1), []));
    expect(error).toBeUndefined();
    expect(parts).toEqual([{ type: 'text-delta', text: ' w0' }, { type: 'text-delta', text: words.slice(1).join('') }, { type: 'finish' }]);
  });

  it('turns a read error after the answer started into a cut (Continue), keeping the text before it', async () => {
    const bytes = sse([chunk({ content: 'Partial ' }), chunk({ content: 'answer' })]);
    const { parts, error } = await run(streamingFetch(bytes, [10], [], new TypeError('network error')));
    expect(mergeDeltas(parts)).toEqual([{ type: 'text-delta', text: 'Partial answer' }]);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('bad_stream');
    expect((error as ModelError).message).toMatch(/stopped in the middle.*Continue/);
  });

  it('stops with the abort reason when the signal fires mid-stream', async () => {
    const controller = new AbortController();
    const model = promptedModel(createOpenAiCompatibleModel(profile, { fetch: streamingFetch(sse([chunk({ content: 'a' }), chunk({ content: 'b' }), finish('stop')]), [5, 40, 80], []) }));
    const reason = new DOMException('Stopped by the user.', 'AbortError');
    let caught: unknown;
    try {
      for await (const part of model.streamStep({ conversation, history, tools: [], signal: controller.signal })) {
        if (part.type === 'text-delta') controller.abort(reason);
      }
    } catch (error) {
      caught = error;
    }
    // Either the read was cut by the abort, or the step ended first: never a ModelError.
    expect(caught === undefined || caught === reason).toBe(true);
  });
});
